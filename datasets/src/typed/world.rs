//! `world`: the state of a game world, one small struct per entity. Enums
//! on every entity (a unit-only kind, a state with unit, newtype and struct
//! variants, a short list of effects), small integers, and `f32` positions
//! with every bit of their precision: no strings at all.

use serde::{Deserialize, Serialize};

use crate::Scale;
use crate::generate::draw::Draw;
use crate::typed::TypedData;
#[cfg(feature = "protobuf")]
use crate::typed::protobuf::Invalid;

/// The whole dataset: every entity of one world.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct World {
    /// The entities, by increasing id.
    pub entities: Vec<Entity>,
}

/// One thing in the world.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Entity {
    /// The entity's id: increasing, with the gaps that despawned entities
    /// left.
    pub id: u32,
    /// What the entity is.
    pub kind: Kind,
    /// Where it is.
    pub pos: Pos,
    /// The direction it faces, in 256ths of a turn.
    pub facing: u8,
    /// Health points: 0 for what cannot be hurt, 1 for a projectile.
    pub hp: u16,
    /// Its team: 0 for neutral.
    pub team: u8,
    /// What it is doing.
    pub state: State,
    /// The effects on it, mostly none.
    pub effects: Vec<Effect>,
}

/// A position on the map, in world units.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Pos {
    /// East.
    pub x: f32,
    /// North.
    pub y: f32,
}

/// What an entity is: a unit-only enum.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Kind {
    /// A player's character.
    Player,
    /// A computer-controlled character that does not fight.
    Npc,
    /// A computer-controlled creature that does.
    Monster,
    /// Something thrown or fired.
    Projectile,
    /// Something to pick up.
    Item,
    /// An invisible area that does something when entered.
    Trigger,
}

/// What an entity is doing: every variant shape but the tuple.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub enum State {
    /// Nothing (a unit variant).
    Idle,
    /// On its way somewhere (a struct variant).
    Moving {
        /// Where it is going.
        target: Pos,
        /// World units per second.
        speed: f32,
    },
    /// Attacking the entity with this id (a newtype variant).
    Attacking(u32),
    /// Casting a spell (a struct variant).
    Casting {
        /// The spell's id in the game's catalogue.
        spell: u16,
        /// How far along the cast is, in percent.
        progress: u8,
    },
    /// Dead, waiting to respawn or be removed (a unit variant).
    Dead,
}

/// An effect on an entity: unit, newtype and struct variants.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub enum Effect {
    /// Burning: damage per tick.
    Burn(u8),
    /// Slowed down.
    Slow {
        /// The fraction of its speed left.
        factor: f32,
        /// Ticks until it wears off.
        ticks: u16,
    },
    /// Shielded: the damage the shield absorbs.
    Shield(u16),
    /// Stunned: cannot act.
    Stun,
}

impl TypedData for World {
    type Borrowed<'a> = World;
    const HAS_STRINGS: bool = false;
    fn records(&self) -> usize {
        self.entities.len()
    }
    #[cfg(feature = "protobuf")]
    type Proto = proto::WorldMsg;
    #[cfg(feature = "protobuf")]
    fn to_proto(&self) -> Self::Proto {
        proto::to_proto(self)
    }
    #[cfg(feature = "protobuf")]
    fn from_proto(msg: Self::Proto) -> Result<Self, Invalid> {
        proto::from_proto(msg)
    }
}

pub(crate) fn count(scale: Scale) -> u64 {
    scale.pick(2_000, 50_000)
}

/// The slow factors designers give their spells: some exact in binary16,
/// some not, as they come.
const SLOW_FACTORS: [f32; 5] = [0.3, 0.5, 0.6, 0.75, 0.8];

pub(crate) fn generate(seed: u64, scale: Scale) -> World {
    let mut draw = Draw::new(seed);
    let mut ids: Vec<u32> = Vec::with_capacity(count(scale) as usize);
    let mut id = 0u32;
    let entities = (0..count(scale))
        .map(|_| {
            // Most ids follow the last; despawned entities leave gaps.
            id += match draw.weighted(&[70, 20, 8, 2]) {
                0 => 1,
                1 => draw.between(2, 5),
                2 => draw.between(6, 50),
                _ => draw.between(51, 2_000),
            } as u32;
            let entity = entity(&mut draw, id, &ids);
            ids.push(id);
            entity
        })
        .collect();
    World { entities }
}

/// A coordinate anywhere on the 8,192-unit map, at full `f32` precision.
fn coordinate(draw: &mut Draw) -> f32 {
    draw.f32_between(-4_096.0, 4_096.0)
}

/// A coordinate within 64 units of `c`, on the map.
fn near(draw: &mut Draw, c: f32) -> f32 {
    let c = f64::from(c);
    draw.f32_between((c - 64.0).max(-4_096.0), (c + 64.0).min(4_096.0))
}

fn entity(draw: &mut Draw, id: u32, earlier: &[u32]) -> Entity {
    let kind = [
        Kind::Player,
        Kind::Npc,
        Kind::Monster,
        Kind::Projectile,
        Kind::Item,
        Kind::Trigger,
    ][draw.weighted(&[3, 12, 35, 25, 18, 7])];
    let pos = Pos {
        x: coordinate(draw),
        y: coordinate(draw),
    };
    let facing = draw.between(0, 255) as u8;
    // Per kind: health, team, the weights of Idle, Moving, Attacking,
    // Casting and Dead, and those of 0 to 3 effects.
    let (hp, team, states, effects): (u64, u64, [u64; 5], [u64; 4]) = match kind {
        Kind::Player => (
            draw.between(1, 200),
            draw.between(1, 4),
            [30, 40, 15, 10, 5],
            [60, 25, 10, 5],
        ),
        Kind::Npc => (draw.between(50, 150), 0, [70, 25, 2, 3, 0], [90, 8, 2, 0]),
        Kind::Monster => (
            draw.between(1, 500),
            draw.between(5, 6),
            [25, 35, 25, 5, 10],
            [75, 18, 5, 2],
        ),
        Kind::Projectile => (1, draw.between(0, 6), [0, 97, 0, 0, 3], [1, 0, 0, 0]),
        Kind::Item => (0, 0, [1, 0, 0, 0, 0], [1, 0, 0, 0]),
        Kind::Trigger => (0, 0, [95, 0, 0, 0, 5], [1, 0, 0, 0]),
    };
    let state = match draw.weighted(&states) {
        0 => State::Idle,
        1 => State::Moving {
            target: Pos {
                x: near(draw, pos.x),
                y: near(draw, pos.y),
            },
            speed: if kind == Kind::Projectile {
                draw.f32_between(20.0, 60.0)
            } else {
                draw.f32_between(0.5, 12.0)
            },
        },
        // Something nearby, which was spawned shortly before.
        2 => State::Attacking(match earlier.len() {
            0 => id + 1,
            n => *draw.pick(&earlier[n.saturating_sub(200)..]),
        }),
        3 => State::Casting {
            spell: draw.between(1, 240) as u16,
            progress: draw.between(0, 100) as u8,
        },
        _ => State::Dead,
    };
    let hp = if state == State::Dead { 0 } else { hp as u16 };
    let effects = (0..draw.weighted(&effects))
        .map(|_| match draw.weighted(&[35, 30, 25, 10]) {
            0 => Effect::Burn(draw.between(1, 20) as u8),
            1 => Effect::Slow {
                factor: *draw.pick(&SLOW_FACTORS),
                ticks: draw.between(10, 300) as u16,
            },
            2 => Effect::Shield(draw.between(10, 500) as u16),
            _ => Effect::Stun,
        })
        .collect();
    Entity {
        id,
        kind,
        pos,
        facing,
        hp,
        team: team as u8,
        state,
        effects,
    }
}

/// `world`'s Protobuf schema: its messages and the conversions between them
/// and the Rust types.
#[cfg(feature = "protobuf")]
pub mod proto {
    use prost::{Enumeration, Message, Oneof};

    use super::{Effect, Entity, Kind, Pos, State, World};
    use crate::typed::protobuf::{Empty, Invalid, enumeration, narrow, present};

    /// `World`.
    #[derive(Clone, PartialEq, Message)]
    pub struct WorldMsg {
        /// The entities.
        #[prost(message, repeated, tag = "1")]
        pub entities: Vec<EntityMsg>,
    }

    /// `Entity`.
    #[derive(Clone, PartialEq, Message)]
    pub struct EntityMsg {
        /// Id.
        #[prost(uint32, tag = "1")]
        pub id: u32,
        /// Kind.
        #[prost(enumeration = "KindMsg", tag = "2")]
        pub kind: i32,
        /// Position.
        #[prost(message, optional, tag = "3")]
        pub pos: Option<PosMsg>,
        /// Facing.
        #[prost(uint32, tag = "4")]
        pub facing: u32,
        /// Health.
        #[prost(uint32, tag = "5")]
        pub hp: u32,
        /// Team.
        #[prost(uint32, tag = "6")]
        pub team: u32,
        /// State.
        #[prost(oneof = "StateMsg", tags = "7, 8, 9, 10, 11")]
        pub state: Option<StateMsg>,
        /// Effects.
        #[prost(message, repeated, tag = "12")]
        pub effects: Vec<EffectMsg>,
    }

    /// `Pos`.
    #[derive(Clone, Copy, PartialEq, Message)]
    pub struct PosMsg {
        /// x.
        #[prost(float, tag = "1")]
        pub x: f32,
        /// y.
        #[prost(float, tag = "2")]
        pub y: f32,
    }

    /// `Kind`.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Enumeration)]
    #[repr(i32)]
    pub enum KindMsg {
        /// Player.
        Player = 0,
        /// Npc.
        Npc = 1,
        /// Monster.
        Monster = 2,
        /// Projectile.
        Projectile = 3,
        /// Item.
        Item = 4,
        /// Trigger.
        Trigger = 5,
    }

    /// `State`.
    #[derive(Clone, Copy, PartialEq, Oneof)]
    pub enum StateMsg {
        /// Idle.
        #[prost(message, tag = "7")]
        Idle(Empty),
        /// Moving.
        #[prost(message, tag = "8")]
        Moving(MovingMsg),
        /// Attacking a target.
        #[prost(uint32, tag = "9")]
        Attacking(u32),
        /// Casting.
        #[prost(message, tag = "10")]
        Casting(CastingMsg),
        /// Dead.
        #[prost(message, tag = "11")]
        Dead(Empty),
    }

    /// `State::Moving`.
    #[derive(Clone, Copy, PartialEq, Message)]
    pub struct MovingMsg {
        /// Target.
        #[prost(message, optional, tag = "1")]
        pub target: Option<PosMsg>,
        /// Speed.
        #[prost(float, tag = "2")]
        pub speed: f32,
    }

    /// `State::Casting`.
    #[derive(Clone, Copy, PartialEq, Message)]
    pub struct CastingMsg {
        /// Spell.
        #[prost(uint32, tag = "1")]
        pub spell: u32,
        /// Progress.
        #[prost(uint32, tag = "2")]
        pub progress: u32,
    }

    /// `Effect`.
    #[derive(Clone, Copy, PartialEq, Message)]
    pub struct EffectMsg {
        /// Which effect.
        #[prost(oneof = "EffectKindMsg", tags = "1, 2, 3, 4")]
        pub kind: Option<EffectKindMsg>,
    }

    /// The variants of `Effect`.
    #[derive(Clone, Copy, PartialEq, Oneof)]
    pub enum EffectKindMsg {
        /// Burn.
        #[prost(uint32, tag = "1")]
        Burn(u32),
        /// Slow.
        #[prost(message, tag = "2")]
        Slow(SlowMsg),
        /// Shield.
        #[prost(uint32, tag = "3")]
        Shield(u32),
        /// Stun.
        #[prost(message, tag = "4")]
        Stun(Empty),
    }

    /// `Effect::Slow`.
    #[derive(Clone, Copy, PartialEq, Message)]
    pub struct SlowMsg {
        /// Factor.
        #[prost(float, tag = "1")]
        pub factor: f32,
        /// Ticks.
        #[prost(uint32, tag = "2")]
        pub ticks: u32,
    }

    fn pos_to_proto(pos: Pos) -> Option<PosMsg> {
        Some(PosMsg { x: pos.x, y: pos.y })
    }

    fn pos_from_proto(pos: Option<PosMsg>, name: &str) -> Result<Pos, Invalid> {
        present(pos, name).map(|p| Pos { x: p.x, y: p.y })
    }

    fn entity_to_proto(e: &Entity) -> EntityMsg {
        EntityMsg {
            id: e.id,
            kind: (match e.kind {
                Kind::Player => KindMsg::Player,
                Kind::Npc => KindMsg::Npc,
                Kind::Monster => KindMsg::Monster,
                Kind::Projectile => KindMsg::Projectile,
                Kind::Item => KindMsg::Item,
                Kind::Trigger => KindMsg::Trigger,
            }) as i32,
            pos: pos_to_proto(e.pos),
            facing: e.facing.into(),
            hp: e.hp.into(),
            team: e.team.into(),
            state: Some(match e.state {
                State::Idle => StateMsg::Idle(Empty {}),
                State::Moving { target, speed } => StateMsg::Moving(MovingMsg {
                    target: pos_to_proto(target),
                    speed,
                }),
                State::Attacking(target) => StateMsg::Attacking(target),
                State::Casting { spell, progress } => StateMsg::Casting(CastingMsg {
                    spell: spell.into(),
                    progress: progress.into(),
                }),
                State::Dead => StateMsg::Dead(Empty {}),
            }),
            effects: e
                .effects
                .iter()
                .map(|effect| EffectMsg {
                    kind: Some(match *effect {
                        Effect::Burn(damage) => EffectKindMsg::Burn(damage.into()),
                        Effect::Slow { factor, ticks } => EffectKindMsg::Slow(SlowMsg {
                            factor,
                            ticks: ticks.into(),
                        }),
                        Effect::Shield(amount) => EffectKindMsg::Shield(amount.into()),
                        Effect::Stun => EffectKindMsg::Stun(Empty {}),
                    }),
                })
                .collect(),
        }
    }

    fn entity_from_proto(e: EntityMsg) -> Result<Entity, Invalid> {
        Ok(Entity {
            id: e.id,
            kind: match enumeration(e.kind, "kind")? {
                KindMsg::Player => Kind::Player,
                KindMsg::Npc => Kind::Npc,
                KindMsg::Monster => Kind::Monster,
                KindMsg::Projectile => Kind::Projectile,
                KindMsg::Item => Kind::Item,
                KindMsg::Trigger => Kind::Trigger,
            },
            pos: pos_from_proto(e.pos, "pos")?,
            facing: narrow(e.facing, "facing")?,
            hp: narrow(e.hp, "hp")?,
            team: narrow(e.team, "team")?,
            state: match present(e.state, "state")? {
                StateMsg::Idle(_) => State::Idle,
                StateMsg::Moving(m) => State::Moving {
                    target: pos_from_proto(m.target, "target")?,
                    speed: m.speed,
                },
                StateMsg::Attacking(target) => State::Attacking(target),
                StateMsg::Casting(c) => State::Casting {
                    spell: narrow(c.spell, "spell")?,
                    progress: narrow(c.progress, "progress")?,
                },
                StateMsg::Dead(_) => State::Dead,
            },
            effects: e
                .effects
                .into_iter()
                .map(|effect| {
                    Ok(match present(effect.kind, "effect")? {
                        EffectKindMsg::Burn(damage) => Effect::Burn(narrow(damage, "burn")?),
                        EffectKindMsg::Slow(s) => Effect::Slow {
                            factor: s.factor,
                            ticks: narrow(s.ticks, "ticks")?,
                        },
                        EffectKindMsg::Shield(amount) => Effect::Shield(narrow(amount, "shield")?),
                        EffectKindMsg::Stun(_) => Effect::Stun,
                    })
                })
                .collect::<Result<_, Invalid>>()?,
        })
    }

    pub(super) fn to_proto(world: &World) -> WorldMsg {
        WorldMsg {
            entities: world.entities.iter().map(entity_to_proto).collect(),
        }
    }

    pub(super) fn from_proto(msg: WorldMsg) -> Result<World, Invalid> {
        let entities = msg
            .entities
            .into_iter()
            .map(entity_from_proto)
            .collect::<Result<_, Invalid>>()?;
        Ok(World { entities })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_state_and_effect_appears_with_increasing_ids() {
        let world = generate(crate::typed::TypedDataset::World.seed(), Scale::Ci);
        let entities = &world.entities;
        assert!(entities.windows(2).all(|w| w[0].id < w[1].id));
        assert!(entities.windows(2).any(|w| w[1].id - w[0].id > 1));
        let mut kinds = [0usize; 6];
        let mut states = [0usize; 5];
        let mut effects = [0usize; 4];
        for e in entities {
            kinds[e.kind as usize] += 1;
            states[match e.state {
                State::Idle => 0,
                State::Moving { .. } => 1,
                State::Attacking(_) => 2,
                State::Casting { .. } => 3,
                State::Dead => 4,
            }] += 1;
            for effect in &e.effects {
                effects[match effect {
                    Effect::Burn(_) => 0,
                    Effect::Slow { .. } => 1,
                    Effect::Shield(_) => 2,
                    Effect::Stun => 3,
                }] += 1;
            }
            assert!(e.effects.len() <= 3);
            assert!(e.pos.x.abs() < 4_096.0 && e.pos.y.abs() < 4_096.0);
        }
        assert!(kinds.iter().all(|&n| n > 0), "{kinds:?}");
        assert!(states.iter().all(|&n| n > 0), "{states:?}");
        assert!(effects.iter().all(|&n| n > 0), "{effects:?}");
        // Skewed: idle and moving entities are most of the world, and most
        // entities have no effect.
        assert!(states[0] + states[1] > entities.len() / 2, "{states:?}");
        let without = entities.iter().filter(|e| e.effects.is_empty()).count();
        assert!(without > entities.len() * 3 / 4, "{without}");
    }
}
