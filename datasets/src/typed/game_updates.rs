//! `game_updates`: the state updates a game server sends each tick. Many
//! small integers, unit and data-carrying enums, and `Vec`s of entities: no
//! strings at all.

use serde::{Deserialize, Serialize};

use crate::Scale;
use crate::generate::draw::Draw;

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
