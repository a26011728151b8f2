//! `game_save`: saved games of a role-playing game. Nested structs,
//! `Option`s, enums of every shape serde knows (unit, newtype, tuple and
//! struct variants), a tuple struct, and arrays of small structs.

use serde::{Deserialize, Serialize};

use crate::Scale;
use crate::generate::draw::Draw;
use crate::generate::vocabulary::{ADJECTIVES, GIVEN_NAMES, NOUNS};
use crate::typed::TypedData;
#[cfg(feature = "protobuf")]
use crate::typed::protobuf::Invalid;

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

impl TypedData for GameSaves<String> {
    type Borrowed<'a> = GameSaves<&'a str>;
    const HAS_STRINGS: bool = true;
    fn records(&self) -> usize {
        self.saves.len()
    }
    #[cfg(feature = "protobuf")]
    type Proto = proto::GameSavesMsg;
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

/// `game_save`'s Protobuf schema: its messages and the conversions between them
/// and the Rust types.
#[cfg(feature = "protobuf")]
pub mod proto {
    use prost::{Enumeration, Message, Oneof};

    use super::{
        Boss, Chest, Class, Effect, GameSave, GameSaves, Item, ItemKind, Player, Position, Quest,
        QuestState, Region,
    };
    use crate::typed::protobuf::{Empty, Invalid, Vec3Msg, enumeration, narrow, present};

    /// `GameSaves`.
    #[derive(Clone, PartialEq, Message)]
    pub struct GameSavesMsg {
        /// The saves.
        #[prost(message, repeated, tag = "1")]
        pub saves: Vec<GameSaveMsg>,
    }

    /// `GameSave`.
    #[derive(Clone, PartialEq, Message)]
    pub struct GameSaveMsg {
        /// Format version.
        #[prost(uint32, tag = "1")]
        pub version: u32,
        /// Seconds played.
        #[prost(uint64, tag = "2")]
        pub play_time_s: u64,
        /// The player.
        #[prost(message, optional, tag = "3")]
        pub player: Option<PlayerMsg>,
        /// The regions.
        #[prost(message, repeated, tag = "4")]
        pub regions: Vec<RegionMsg>,
        /// The quests.
        #[prost(message, repeated, tag = "5")]
        pub quests: Vec<QuestMsg>,
    }

    /// `Player`.
    #[derive(Clone, PartialEq, Message)]
    pub struct PlayerMsg {
        /// Name.
        #[prost(string, tag = "1")]
        pub name: String,
        /// Class.
        #[prost(enumeration = "ClassMsg", tag = "2")]
        pub class: i32,
        /// Level.
        #[prost(uint32, tag = "3")]
        pub level: u32,
        /// Experience.
        #[prost(uint64, tag = "4")]
        pub experience: u64,
        /// Health.
        #[prost(float, tag = "5")]
        pub health: f32,
        /// Position.
        #[prost(message, optional, tag = "6")]
        pub position: Option<Vec3Msg>,
        /// Inventory.
        #[prost(message, repeated, tag = "7")]
        pub inventory: Vec<ItemMsg>,
        /// Weapon in hand.
        #[prost(uint32, optional, tag = "8")]
        pub weapon: Option<u32>,
        /// Guild.
        #[prost(string, optional, tag = "9")]
        pub guild: Option<String>,
    }

    /// `Class`.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Enumeration)]
    #[repr(i32)]
    pub enum ClassMsg {
        /// Warrior.
        Warrior = 0,
        /// Ranger.
        Ranger = 1,
        /// Mage.
        Mage = 2,
        /// Cleric.
        Cleric = 3,
    }

    /// `Item`.
    #[derive(Clone, PartialEq, Message)]
    pub struct ItemMsg {
        /// Catalogue id.
        #[prost(uint32, tag = "1")]
        pub id: u32,
        /// Stack size.
        #[prost(uint32, tag = "2")]
        pub count: u32,
        /// What it is.
        #[prost(oneof = "ItemKindMsg", tags = "3, 4, 5, 6, 7")]
        pub kind: Option<ItemKindMsg>,
    }

    /// `ItemKind`.
    #[derive(Clone, PartialEq, Oneof)]
    pub enum ItemKindMsg {
        /// Junk.
        #[prost(message, tag = "3")]
        Junk(Empty),
        /// Coins.
        #[prost(uint32, tag = "4")]
        Coins(u32),
        /// Weapon.
        #[prost(message, tag = "5")]
        Weapon(WeaponMsg),
        /// Potion.
        #[prost(message, tag = "6")]
        Potion(PotionMsg),
        /// Scroll.
        #[prost(string, tag = "7")]
        Scroll(String),
    }

    /// `ItemKind::Weapon`.
    #[derive(Clone, PartialEq, Message)]
    pub struct WeaponMsg {
        /// Damage.
        #[prost(uint32, tag = "1")]
        pub damage: u32,
        /// Durability.
        #[prost(uint32, tag = "2")]
        pub durability: u32,
        /// Engraving.
        #[prost(string, optional, tag = "3")]
        pub engraving: Option<String>,
    }

    /// `ItemKind::Potion`.
    #[derive(Clone, Copy, PartialEq, Message)]
    pub struct PotionMsg {
        /// Effect.
        #[prost(enumeration = "EffectMsg", tag = "1")]
        pub effect: i32,
        /// Seconds.
        #[prost(uint32, tag = "2")]
        pub seconds: u32,
    }

    /// `Effect`.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Enumeration)]
    #[repr(i32)]
    pub enum EffectMsg {
        /// Heal.
        Heal = 0,
        /// Haste.
        Haste = 1,
        /// Stealth.
        Stealth = 2,
    }

    /// `Region`.
    #[derive(Clone, PartialEq, Message)]
    pub struct RegionMsg {
        /// Name.
        #[prost(string, tag = "1")]
        pub name: String,
        /// Discovered.
        #[prost(bool, tag = "2")]
        pub discovered: bool,
        /// Chests.
        #[prost(message, repeated, tag = "3")]
        pub chests: Vec<ChestMsg>,
        /// Boss.
        #[prost(message, optional, tag = "4")]
        pub boss: Option<BossMsg>,
    }

    /// `Chest`.
    #[derive(Clone, Copy, PartialEq, Message)]
    pub struct ChestMsg {
        /// Column.
        #[prost(sint32, tag = "1")]
        pub x: i32,
        /// Row.
        #[prost(sint32, tag = "2")]
        pub y: i32,
        /// Opened.
        #[prost(bool, tag = "3")]
        pub opened: bool,
    }

    /// `Boss`.
    #[derive(Clone, Copy, PartialEq, Message)]
    pub struct BossMsg {
        /// Catalogue id.
        #[prost(uint32, tag = "1")]
        pub id: u32,
        /// Health fraction.
        #[prost(float, tag = "2")]
        pub health: f32,
        /// Defeat time.
        #[prost(uint64, optional, tag = "3")]
        pub defeated_at: Option<u64>,
    }

    /// `Quest`.
    #[derive(Clone, PartialEq, Message)]
    pub struct QuestMsg {
        /// Id.
        #[prost(uint32, tag = "1")]
        pub id: u32,
        /// Title.
        #[prost(string, tag = "2")]
        pub title: String,
        /// State.
        #[prost(oneof = "QuestStateMsg", tags = "3, 4, 5, 6")]
        pub state: Option<QuestStateMsg>,
    }

    /// `QuestState`.
    #[derive(Clone, Copy, PartialEq, Oneof)]
    pub enum QuestStateMsg {
        /// Offered.
        #[prost(message, tag = "3")]
        Offered(Empty),
        /// Active.
        #[prost(message, tag = "4")]
        Active(ActiveMsg),
        /// Completed at.
        #[prost(uint64, tag = "5")]
        Completed(u64),
        /// Abandoned.
        #[prost(message, tag = "6")]
        Abandoned(Empty),
    }

    /// `QuestState::Active`.
    #[derive(Clone, Copy, PartialEq, Message)]
    pub struct ActiveMsg {
        /// Step.
        #[prost(uint32, tag = "1")]
        pub step: u32,
        /// Steps.
        #[prost(uint32, tag = "2")]
        pub steps: u32,
    }

    pub(super) fn to_proto(saves: &GameSaves<String>) -> GameSavesMsg {
        GameSavesMsg {
            saves: saves.saves.iter().map(save_to_proto).collect(),
        }
    }

    fn save_to_proto(s: &GameSave<String>) -> GameSaveMsg {
        let p = &s.player;
        GameSaveMsg {
            version: s.version,
            play_time_s: s.play_time_s,
            player: Some(PlayerMsg {
                name: p.name.clone(),
                class: match p.class {
                    Class::Warrior => ClassMsg::Warrior,
                    Class::Ranger => ClassMsg::Ranger,
                    Class::Mage => ClassMsg::Mage,
                    Class::Cleric => ClassMsg::Cleric,
                } as i32,
                level: p.level.into(),
                experience: p.experience,
                health: p.health,
                position: Some(Vec3Msg {
                    x: p.position.0,
                    y: p.position.1,
                    z: p.position.2,
                }),
                inventory: p
                    .inventory
                    .iter()
                    .map(|i| ItemMsg {
                        id: i.id,
                        count: i.count.into(),
                        kind: Some(match &i.kind {
                            ItemKind::Junk => ItemKindMsg::Junk(Empty {}),
                            ItemKind::Coins(n) => ItemKindMsg::Coins(*n),
                            ItemKind::Weapon {
                                damage,
                                durability,
                                engraving,
                            } => ItemKindMsg::Weapon(WeaponMsg {
                                damage: (*damage).into(),
                                durability: (*durability).into(),
                                engraving: engraving.clone(),
                            }),
                            ItemKind::Potion(effect, seconds) => ItemKindMsg::Potion(PotionMsg {
                                effect: match effect {
                                    Effect::Heal => EffectMsg::Heal,
                                    Effect::Haste => EffectMsg::Haste,
                                    Effect::Stealth => EffectMsg::Stealth,
                                } as i32,
                                seconds: (*seconds).into(),
                            }),
                            ItemKind::Scroll(text) => ItemKindMsg::Scroll(text.clone()),
                        }),
                    })
                    .collect(),
                weapon: p.weapon,
                guild: p.guild.clone(),
            }),
            regions: s
                .regions
                .iter()
                .map(|r| RegionMsg {
                    name: r.name.clone(),
                    discovered: r.discovered,
                    chests: r
                        .chests
                        .iter()
                        .map(|c| ChestMsg {
                            x: c.x.into(),
                            y: c.y.into(),
                            opened: c.opened,
                        })
                        .collect(),
                    boss: r.boss.map(|b| BossMsg {
                        id: b.id,
                        health: b.health,
                        defeated_at: b.defeated_at,
                    }),
                })
                .collect(),
            quests: s
                .quests
                .iter()
                .map(|q| QuestMsg {
                    id: q.id,
                    title: q.title.clone(),
                    state: Some(match q.state {
                        QuestState::Offered => QuestStateMsg::Offered(Empty {}),
                        QuestState::Active { step, steps } => QuestStateMsg::Active(ActiveMsg {
                            step: step.into(),
                            steps: steps.into(),
                        }),
                        QuestState::Completed(at) => QuestStateMsg::Completed(at),
                        QuestState::Abandoned => QuestStateMsg::Abandoned(Empty {}),
                    }),
                })
                .collect(),
        }
    }

    pub(super) fn from_proto(msg: GameSavesMsg) -> Result<GameSaves<String>, Invalid> {
        let saves = msg
            .saves
            .into_iter()
            .map(save_from_proto)
            .collect::<Result<_, Invalid>>()?;
        Ok(GameSaves { saves })
    }

    fn save_from_proto(s: GameSaveMsg) -> Result<GameSave<String>, Invalid> {
        let p = present(s.player, "player")?;
        let position = present(p.position, "position")?;
        let inventory = p
            .inventory
            .into_iter()
            .map(|i| {
                let kind = match present(i.kind, "kind")? {
                    ItemKindMsg::Junk(_) => ItemKind::Junk,
                    ItemKindMsg::Coins(n) => ItemKind::Coins(n),
                    ItemKindMsg::Weapon(w) => ItemKind::Weapon {
                        damage: narrow(w.damage, "damage")?,
                        durability: narrow(w.durability, "durability")?,
                        engraving: w.engraving,
                    },
                    ItemKindMsg::Potion(potion) => ItemKind::Potion(
                        match enumeration(potion.effect, "effect")? {
                            EffectMsg::Heal => Effect::Heal,
                            EffectMsg::Haste => Effect::Haste,
                            EffectMsg::Stealth => Effect::Stealth,
                        },
                        narrow(potion.seconds, "seconds")?,
                    ),
                    ItemKindMsg::Scroll(text) => ItemKind::Scroll(text),
                };
                Ok(Item {
                    id: i.id,
                    count: narrow(i.count, "count")?,
                    kind,
                })
            })
            .collect::<Result<_, Invalid>>()?;
        let player = Player {
            name: p.name,
            class: match enumeration(p.class, "class")? {
                ClassMsg::Warrior => Class::Warrior,
                ClassMsg::Ranger => Class::Ranger,
                ClassMsg::Mage => Class::Mage,
                ClassMsg::Cleric => Class::Cleric,
            },
            level: narrow(p.level, "level")?,
            experience: p.experience,
            health: p.health,
            position: Position(position.x, position.y, position.z),
            inventory,
            weapon: p.weapon,
            guild: p.guild,
        };
        let regions = s
            .regions
            .into_iter()
            .map(|r| {
                Ok(Region {
                    name: r.name,
                    discovered: r.discovered,
                    chests: r
                        .chests
                        .into_iter()
                        .map(|c| {
                            Ok(Chest {
                                x: narrow(c.x, "x")?,
                                y: narrow(c.y, "y")?,
                                opened: c.opened,
                            })
                        })
                        .collect::<Result<_, Invalid>>()?,
                    boss: r.boss.map(|b| Boss {
                        id: b.id,
                        health: b.health,
                        defeated_at: b.defeated_at,
                    }),
                })
            })
            .collect::<Result<_, Invalid>>()?;
        let quests = s
            .quests
            .into_iter()
            .map(|q| {
                Ok(Quest {
                    id: q.id,
                    title: q.title,
                    state: match present(q.state, "state")? {
                        QuestStateMsg::Offered(_) => QuestState::Offered,
                        QuestStateMsg::Active(a) => QuestState::Active {
                            step: narrow(a.step, "step")?,
                            steps: narrow(a.steps, "steps")?,
                        },
                        QuestStateMsg::Completed(at) => QuestState::Completed(at),
                        QuestStateMsg::Abandoned(_) => QuestState::Abandoned,
                    },
                })
            })
            .collect::<Result<_, Invalid>>()?;
        Ok(GameSave {
            version: s.version,
            play_time_s: s.play_time_s,
            player,
            regions,
            quests,
        })
    }
}
