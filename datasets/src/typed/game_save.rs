//! `game_save`: saved games of a role-playing game. Nested structs,
//! `Option`s, enums of every shape serde knows (unit, newtype, tuple and
//! struct variants), a tuple struct, and arrays of small structs.

use serde::{Deserialize, Serialize};

use crate::Scale;
use crate::generate::draw::Draw;
use crate::generate::vocabulary::{ADJECTIVES, GIVEN_NAMES, NOUNS};

/// The whole dataset: the saves of many players.
///
/// `S` is the string type: `String` for owned decoding, `&str` for decoding
/// that borrows from the input.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameSaves<S> {
    /// One save per player.
    pub saves: Vec<GameSave<S>>,
}

/// One saved game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameSave<S> {
    /// The save format's version.
    pub version: u32,
    /// Seconds played.
    pub play_time_s: u64,
    /// The player character.
    pub player: Player<S>,
    /// The regions of the world and what happened in them.
    pub regions: Vec<Region<S>>,
    /// Every quest the player has seen.
    pub quests: Vec<Quest<S>>,
}

/// The player character.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Player<S> {
    /// The character's name.
    pub name: S,
    /// The character class.
    pub class: Class,
    /// Level, 1 to 60.
    pub level: u8,
    /// Experience points.
    pub experience: u64,
    /// Health points left.
    pub health: f32,
    /// Where the character stands.
    pub position: Position,
    /// What the character carries.
    pub inventory: Vec<Item<S>>,
    /// The weapon in hand, if any.
    pub weapon: Option<u32>,
    /// The character's guild, if any.
    pub guild: Option<S>,
}

/// A position in the world: a tuple struct.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Position(pub f32, pub f32, pub f32);

/// A character class: a unit-only enum.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Class {
    /// Melee.
    Warrior,
    /// Ranged.
    Ranger,
    /// Spells.
    Mage,
    /// Healing.
    Cleric,
}

/// One inventory slot.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Item<S> {
    /// The item's id in the game's catalogue.
    pub id: u32,
    /// How many are stacked in the slot.
    pub count: u16,
    /// What the item is.
    pub kind: ItemKind<S>,
}

/// What an item is: every variant shape serde has.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum ItemKind<S> {
    /// Worthless (a unit variant).
    Junk,
    /// A purse of coins (a newtype variant).
    Coins(u32),
    /// A weapon (a struct variant).
    Weapon {
        /// Damage per hit.
        damage: u16,
        /// Durability left, 0 to 100.
        durability: u8,
        /// The engraved name, if the weapon has one.
        engraving: Option<S>,
    },
    /// A potion: its effect and how long it lasts in seconds (a tuple
    /// variant).
    Potion(Effect, u16),
    /// A scroll with its text (a newtype variant holding a string).
    Scroll(S),
}

/// A potion's effect: a unit-only enum.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Effect {
    /// Restores health.
    Heal,
    /// Faster movement.
    Haste,
    /// Harder to see.
    Stealth,
}

/// A region of the world.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Region<S> {
    /// The region's name.
    pub name: S,
    /// Whether the player has been there.
    pub discovered: bool,
    /// The chests placed in it.
    pub chests: Vec<Chest>,
    /// The region's boss, if it has one.
    pub boss: Option<Boss>,
}

/// A chest: a small struct repeated many times.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Chest {
    /// Map column.
    pub x: i16,
    /// Map row.
    pub y: i16,
    /// Whether the player opened it.
    pub opened: bool,
}

/// A region's boss.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Boss {
    /// The boss's id in the game's catalogue.
    pub id: u32,
    /// Health left, as a fraction of the maximum.
    pub health: f32,
    /// When the player defeated it, in Unix seconds.
    pub defeated_at: Option<u64>,
}

/// A quest and where the player is in it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Quest<S> {
    /// The quest's id.
    pub id: u32,
    /// The quest's title.
    pub title: S,
    /// Its state.
    pub state: QuestState,
}

/// A quest's state: unit and struct variants mixed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum QuestState {
    /// Offered, not taken.
    Offered,
    /// Under way.
    Active {
        /// The current step.
        step: u8,
        /// The number of steps.
        steps: u8,
    },
    /// Finished at this Unix time.
    Completed(u64),
    /// Given up.
    Abandoned,
}

pub(crate) fn count(scale: Scale) -> u64 {
    scale.pick(20, 500)
}

pub(crate) fn generate(seed: u64, scale: Scale) -> GameSaves<String> {
    let mut draw = Draw::new(seed);
    let saves = (0..count(scale)).map(|_| save(&mut draw)).collect();
    GameSaves { saves }
}

fn title(draw: &mut Draw) -> String {
    format!("The {} {}", draw.pick(ADJECTIVES), draw.pick(NOUNS))
}

fn save(draw: &mut Draw) -> GameSave<String> {
    let level = draw.between(1, 60) as u8;
    let player = Player {
        name: draw.pick(GIVEN_NAMES).0.to_owned(),
        class: [Class::Warrior, Class::Ranger, Class::Mage, Class::Cleric][draw.index(4)],
        level,
        experience: u64::from(level) * u64::from(level) * 1_000 + draw.between(0, 999),
        health: draw.between(1, 4_000) as f32 * 0.25,
        position: Position(
            draw.unit_f32() * 4_096.0,
            draw.unit_f32() * 64.0,
            draw.unit_f32() * 4_096.0,
        ),
        inventory: (0..draw.between(10, 60)).map(|_| item(draw)).collect(),
        weapon: draw.chance(0.8).then(|| draw.between(1, 500) as u32),
        guild: draw.chance(0.3).then(|| title(draw)),
    };
    let regions = (0..draw.between(4, 12))
        .map(|_| Region {
            name: format!("{} {}", draw.pick(ADJECTIVES), draw.pick(NOUNS)),
            discovered: draw.chance(0.6),
            chests: (0..draw.between(0, 8))
                .map(|_| Chest {
                    x: draw.signed_between(-2_000, 2_000) as i16,
                    y: draw.signed_between(-2_000, 2_000) as i16,
                    opened: draw.chance(0.5),
                })
                .collect(),
            boss: draw.chance(0.4).then(|| Boss {
                id: draw.between(1, 80) as u32,
                health: draw.unit_f32(),
                defeated_at: draw
                    .chance(0.5)
                    .then(|| 1_709_251_200 + draw.between(0, 10_000_000)),
            }),
        })
        .collect();
    let quests = (0..draw.between(5, 30))
        .map(|_| Quest {
            id: draw.between(1, 2_000) as u32,
            title: title(draw),
            state: match draw.weighted(&[2, 4, 5, 1]) {
                0 => QuestState::Offered,
                1 => {
                    let steps = draw.between(2, 12) as u8;
                    QuestState::Active {
                        step: draw.between(1, u64::from(steps)) as u8,
                        steps,
                    }
                }
                2 => QuestState::Completed(1_709_251_200 + draw.between(0, 10_000_000)),
                _ => QuestState::Abandoned,
            },
        })
        .collect();
    GameSave {
        version: 7,
        play_time_s: draw.between(60, 2_000_000),
        player,
        regions,
        quests,
    }
}

fn item(draw: &mut Draw) -> Item<String> {
    let kind = match draw.weighted(&[2, 2, 3, 3, 1]) {
        0 => ItemKind::Junk,
        1 => ItemKind::Coins(draw.between(1, 50_000) as u32),
        2 => ItemKind::Weapon {
            damage: draw.between(1, 900) as u16,
            durability: draw.between(0, 100) as u8,
            engraving: draw.chance(0.2).then(|| title(draw)),
        },
        3 => ItemKind::Potion(
            [Effect::Heal, Effect::Haste, Effect::Stealth][draw.index(3)],
            draw.between(5, 600) as u16,
        ),
        _ => ItemKind::Scroll(format!(
            "{} the {} {}",
            draw.pick(&["Summon", "Banish", "Reveal", "Mend"]),
            draw.pick(ADJECTIVES),
            draw.pick(NOUNS)
        )),
    };
    Item {
        id: draw.between(1, 5_000) as u32,
        count: draw.between(1, 99) as u16,
        kind,
    }
}
