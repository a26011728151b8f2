//! `game_updates`: the state updates a game server sends each tick. Many
//! small integers, unit and data-carrying enums, and `Vec`s of entities: no
//! strings at all.

use serde::{Deserialize, Serialize};

use crate::Scale;
use crate::generate::draw::Draw;
use crate::typed::TypedData;
#[cfg(feature = "protobuf")]
use crate::typed::protobuf::Invalid;

/// The whole dataset: consecutive ticks of one match.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameUpdates {
    /// One update per server tick.
    pub ticks: Vec<Tick>,
}

/// What changed in one server tick.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Tick {
    /// The tick number.
    pub tick: u32,
    /// The entities that moved or changed.
    pub entities: Vec<EntityUpdate>,
    /// Discrete events of the tick.
    pub events: Vec<Event>,
}

/// One entity's new state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EntityUpdate {
    /// The entity's id.
    pub id: u32,
    /// What the entity is.
    pub kind: EntityKind,
    /// Position in map units.
    pub x: i16,
    /// Position in map units.
    pub y: i16,
    /// Velocity in map units per tick.
    pub dx: i8,
    /// Velocity in map units per tick.
    pub dy: i8,
    /// Health, 0 to 255.
    pub health: u8,
    /// What the entity is doing.
    pub state: EntityState,
}

/// What an entity is: a unit-only enum.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum EntityKind {
    /// A player's character.
    Player,
    /// A computer-controlled creature.
    Monster,
    /// A thrown or fired object.
    Projectile,
    /// Something that can be picked up.
    Pickup,
}

/// What an entity is doing: unit and struct variants.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum EntityState {
    /// Standing still.
    Idle,
    /// Moving at this speed.
    Moving {
        /// Map units per tick.
        speed: u8,
    },
    /// Attacking another entity.
    Attacking {
        /// The target's id.
        target: u32,
    },
    /// Dead, waiting to respawn.
    Dead,
}

/// A discrete event: struct, newtype and tuple variants.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Event {
    /// An entity appeared.
    Spawn {
        /// Its id.
        id: u32,
        /// What it is.
        kind: EntityKind,
    },
    /// An entity left the game.
    Despawn(u32),
    /// One entity hurt another.
    Damage {
        /// The attacker's id.
        source: u32,
        /// The victim's id.
        target: u32,
        /// Health removed.
        amount: u16,
    },
    /// A team scored: the team and its new score.
    Score(u8, u32),
}

impl TypedData for GameUpdates {
    type Borrowed<'a> = GameUpdates;
    const HAS_STRINGS: bool = false;
    fn records(&self) -> usize {
        self.ticks.len()
    }
    #[cfg(feature = "protobuf")]
    type Proto = proto::GameUpdatesMsg;
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
    scale.pick(200, 5_000)
}

pub(crate) fn generate(seed: u64, scale: Scale) -> GameUpdates {
    let mut draw = Draw::new(seed);
    let kinds = [
        EntityKind::Player,
        EntityKind::Monster,
        EntityKind::Projectile,
        EntityKind::Pickup,
    ];
    let ticks = (0..count(scale))
        .map(|n| Tick {
            tick: 1_000 + n as u32,
            entities: (0..draw.between(10, 60))
                .map(|_| EntityUpdate {
                    id: draw.between(1, 400) as u32,
                    kind: kinds[draw.weighted(&[3, 5, 3, 1])],
                    x: draw.signed_between(-4_000, 4_000) as i16,
                    y: draw.signed_between(-4_000, 4_000) as i16,
                    dx: draw.signed_between(-12, 12) as i8,
                    dy: draw.signed_between(-12, 12) as i8,
                    health: draw.between(0, 255) as u8,
                    state: match draw.weighted(&[3, 5, 2, 1]) {
                        0 => EntityState::Idle,
                        1 => EntityState::Moving {
                            speed: draw.between(1, 20) as u8,
                        },
                        2 => EntityState::Attacking {
                            target: draw.between(1, 400) as u32,
                        },
                        _ => EntityState::Dead,
                    },
                })
                .collect(),
            events: (0..draw.between(0, 5))
                .map(|_| match draw.weighted(&[2, 2, 5, 1]) {
                    0 => Event::Spawn {
                        id: draw.between(1, 400) as u32,
                        kind: kinds[draw.index(4)],
                    },
                    1 => Event::Despawn(draw.between(1, 400) as u32),
                    2 => Event::Damage {
                        source: draw.between(1, 400) as u32,
                        target: draw.between(1, 400) as u32,
                        amount: draw.between(1, 300) as u16,
                    },
                    _ => Event::Score(draw.between(0, 1) as u8, draw.between(0, 200) as u32),
                })
                .collect(),
        })
        .collect();
    GameUpdates { ticks }
}

/// `game_updates`'s Protobuf schema: its messages and the conversions between them
/// and the Rust types.
#[cfg(feature = "protobuf")]
pub mod proto {
    use prost::{Enumeration, Message, Oneof};

    use super::{EntityKind, EntityState, EntityUpdate, Event, GameUpdates, Tick};
    use crate::typed::protobuf::{Empty, Invalid, enumeration, narrow, present};

    /// `GameUpdates`.
    #[derive(Clone, PartialEq, Message)]
    pub struct GameUpdatesMsg {
        /// The ticks.
        #[prost(message, repeated, tag = "1")]
        pub ticks: Vec<TickMsg>,
    }

    /// `Tick`.
    #[derive(Clone, PartialEq, Message)]
    pub struct TickMsg {
        /// Tick number.
        #[prost(uint32, tag = "1")]
        pub tick: u32,
        /// Entity updates.
        #[prost(message, repeated, tag = "2")]
        pub entities: Vec<EntityUpdateMsg>,
        /// Events.
        #[prost(message, repeated, tag = "3")]
        pub events: Vec<EventMsg>,
    }

    /// `EntityUpdate`.
    #[derive(Clone, Copy, PartialEq, Message)]
    pub struct EntityUpdateMsg {
        /// Id.
        #[prost(uint32, tag = "1")]
        pub id: u32,
        /// Kind.
        #[prost(enumeration = "EntityKindMsg", tag = "2")]
        pub kind: i32,
        /// x.
        #[prost(sint32, tag = "3")]
        pub x: i32,
        /// y.
        #[prost(sint32, tag = "4")]
        pub y: i32,
        /// dx.
        #[prost(sint32, tag = "5")]
        pub dx: i32,
        /// dy.
        #[prost(sint32, tag = "6")]
        pub dy: i32,
        /// Health.
        #[prost(uint32, tag = "7")]
        pub health: u32,
        /// State.
        #[prost(oneof = "EntityStateMsg", tags = "8, 9, 10, 11")]
        pub state: Option<EntityStateMsg>,
    }

    /// `EntityKind`.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Enumeration)]
    #[repr(i32)]
    pub enum EntityKindMsg {
        /// Player.
        Player = 0,
        /// Monster.
        Monster = 1,
        /// Projectile.
        Projectile = 2,
        /// Pickup.
        Pickup = 3,
    }

    /// `EntityState`.
    #[derive(Clone, Copy, PartialEq, Oneof)]
    pub enum EntityStateMsg {
        /// Idle.
        #[prost(message, tag = "8")]
        Idle(Empty),
        /// Moving at a speed.
        #[prost(uint32, tag = "9")]
        Moving(u32),
        /// Attacking a target.
        #[prost(uint32, tag = "10")]
        Attacking(u32),
        /// Dead.
        #[prost(message, tag = "11")]
        Dead(Empty),
    }

    /// `Event`.
    #[derive(Clone, Copy, PartialEq, Message)]
    pub struct EventMsg {
        /// Which event.
        #[prost(oneof = "EventKindMsg", tags = "1, 2, 3, 4")]
        pub kind: Option<EventKindMsg>,
    }

    /// The variants of `Event`.
    #[derive(Clone, Copy, PartialEq, Oneof)]
    pub enum EventKindMsg {
        /// Spawn.
        #[prost(message, tag = "1")]
        Spawn(SpawnMsg),
        /// Despawn.
        #[prost(uint32, tag = "2")]
        Despawn(u32),
        /// Damage.
        #[prost(message, tag = "3")]
        Damage(DamageMsg),
        /// Score.
        #[prost(message, tag = "4")]
        Score(ScoreMsg),
    }

    /// `Event::Spawn`.
    #[derive(Clone, Copy, PartialEq, Message)]
    pub struct SpawnMsg {
        /// Id.
        #[prost(uint32, tag = "1")]
        pub id: u32,
        /// Kind.
        #[prost(enumeration = "EntityKindMsg", tag = "2")]
        pub kind: i32,
    }

    /// `Event::Damage`.
    #[derive(Clone, Copy, PartialEq, Message)]
    pub struct DamageMsg {
        /// Attacker.
        #[prost(uint32, tag = "1")]
        pub source: u32,
        /// Victim.
        #[prost(uint32, tag = "2")]
        pub target: u32,
        /// Amount.
        #[prost(uint32, tag = "3")]
        pub amount: u32,
    }

    /// `Event::Score`.
    #[derive(Clone, Copy, PartialEq, Message)]
    pub struct ScoreMsg {
        /// Team.
        #[prost(uint32, tag = "1")]
        pub team: u32,
        /// New score.
        #[prost(uint32, tag = "2")]
        pub score: u32,
    }

    fn kind_to_proto(kind: EntityKind) -> i32 {
        (match kind {
            EntityKind::Player => EntityKindMsg::Player,
            EntityKind::Monster => EntityKindMsg::Monster,
            EntityKind::Projectile => EntityKindMsg::Projectile,
            EntityKind::Pickup => EntityKindMsg::Pickup,
        }) as i32
    }

    fn kind_from_proto(kind: i32) -> Result<EntityKind, Invalid> {
        Ok(match enumeration(kind, "kind")? {
            EntityKindMsg::Player => EntityKind::Player,
            EntityKindMsg::Monster => EntityKind::Monster,
            EntityKindMsg::Projectile => EntityKind::Projectile,
            EntityKindMsg::Pickup => EntityKind::Pickup,
        })
    }

    pub(super) fn to_proto(updates: &GameUpdates) -> GameUpdatesMsg {
        GameUpdatesMsg {
            ticks: updates
                .ticks
                .iter()
                .map(|t| TickMsg {
                    tick: t.tick,
                    entities: t
                        .entities
                        .iter()
                        .map(|e| EntityUpdateMsg {
                            id: e.id,
                            kind: kind_to_proto(e.kind),
                            x: e.x.into(),
                            y: e.y.into(),
                            dx: e.dx.into(),
                            dy: e.dy.into(),
                            health: e.health.into(),
                            state: Some(match e.state {
                                EntityState::Idle => EntityStateMsg::Idle(Empty {}),
                                EntityState::Moving { speed } => {
                                    EntityStateMsg::Moving(speed.into())
                                }
                                EntityState::Attacking { target } => {
                                    EntityStateMsg::Attacking(target)
                                }
                                EntityState::Dead => EntityStateMsg::Dead(Empty {}),
                            }),
                        })
                        .collect(),
                    events: t
                        .events
                        .iter()
                        .map(|e| EventMsg {
                            kind: Some(match *e {
                                Event::Spawn { id, kind } => EventKindMsg::Spawn(SpawnMsg {
                                    id,
                                    kind: kind_to_proto(kind),
                                }),
                                Event::Despawn(id) => EventKindMsg::Despawn(id),
                                Event::Damage {
                                    source,
                                    target,
                                    amount,
                                } => EventKindMsg::Damage(DamageMsg {
                                    source,
                                    target,
                                    amount: amount.into(),
                                }),
                                Event::Score(team, score) => EventKindMsg::Score(ScoreMsg {
                                    team: team.into(),
                                    score,
                                }),
                            }),
                        })
                        .collect(),
                })
                .collect(),
        }
    }

    pub(super) fn from_proto(msg: GameUpdatesMsg) -> Result<GameUpdates, Invalid> {
        let ticks = msg
            .ticks
            .into_iter()
            .map(|t| {
                Ok(Tick {
                    tick: t.tick,
                    entities: t
                        .entities
                        .into_iter()
                        .map(|e| {
                            Ok(EntityUpdate {
                                id: e.id,
                                kind: kind_from_proto(e.kind)?,
                                x: narrow(e.x, "x")?,
                                y: narrow(e.y, "y")?,
                                dx: narrow(e.dx, "dx")?,
                                dy: narrow(e.dy, "dy")?,
                                health: narrow(e.health, "health")?,
                                state: match present(e.state, "state")? {
                                    EntityStateMsg::Idle(_) => EntityState::Idle,
                                    EntityStateMsg::Moving(speed) => EntityState::Moving {
                                        speed: narrow(speed, "speed")?,
                                    },
                                    EntityStateMsg::Attacking(target) => {
                                        EntityState::Attacking { target }
                                    }
                                    EntityStateMsg::Dead(_) => EntityState::Dead,
                                },
                            })
                        })
                        .collect::<Result<_, Invalid>>()?,
                    events: t
                        .events
                        .into_iter()
                        .map(|e| {
                            Ok(match present(e.kind, "event")? {
                                EventKindMsg::Spawn(s) => Event::Spawn {
                                    id: s.id,
                                    kind: kind_from_proto(s.kind)?,
                                },
                                EventKindMsg::Despawn(id) => Event::Despawn(id),
                                EventKindMsg::Damage(d) => Event::Damage {
                                    source: d.source,
                                    target: d.target,
                                    amount: narrow(d.amount, "amount")?,
                                },
                                EventKindMsg::Score(s) => {
                                    Event::Score(narrow(s.team, "team")?, s.score)
                                }
                            })
                        })
                        .collect::<Result<_, Invalid>>()?,
                })
            })
            .collect::<Result<_, Invalid>>()?;
        Ok(GameUpdates { ticks })
    }
}
