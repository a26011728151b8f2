//! Protobuf for the typed suite: one prost message per dataset type,
//! declared with prost's derive macros (no `.proto` file, no protoc), and
//! the conversions between each dataset's Rust types and its messages.
//!
//! The messages are what a team using Protobuf would write for the same
//! data: unit-only enums become protobuf enums, enums with data become a
//! `oneof` (with an empty message for data-less variants), signed integers
//! that are often negative use zigzag (`sint32`), and everything else uses
//! the plain varint types. The timed runs encode and decode these messages
//! directly; converting a dataset into its messages (and back, for the
//! round-trip check) happens outside the clock, as it would for a program
//! whose own types are the generated ones.

use prost::{Enumeration, Message, Oneof};
use surp_datasets::typed::game_save::{
    Boss, Chest, Class, Effect, GameSave, GameSaves, Item, ItemKind, Player, Position, Quest,
    QuestState, Region,
};
use surp_datasets::typed::game_updates::{
    EntityKind, EntityState, EntityUpdate, Event, GameUpdates, Tick,
};
use surp_datasets::typed::log::{AccessLog, LogRecord, Method};
use surp_datasets::typed::mesh::{Mesh, Triangle, Vec3};

/// Why a decoded message does not convert back into the dataset's type.
pub(crate) type Invalid = String;

fn present<T>(field: Option<T>, name: &str) -> Result<T, Invalid> {
    field.ok_or_else(|| format!("the message has no `{name}`"))
}

fn narrow<T: TryFrom<u32> + TryFrom<i32>>(value: impl Into<i64>, name: &str) -> Result<T, Invalid> {
    let value: i64 = value.into();
    i32::try_from(value)
        .ok()
        .and_then(|v| T::try_from(v).ok())
        .or_else(|| u32::try_from(value).ok().and_then(|v| T::try_from(v).ok()))
        .ok_or_else(|| format!("`{name}` = {value} is out of range"))
}

fn enumeration<E: TryFrom<i32>>(value: i32, name: &str) -> Result<E, Invalid> {
    E::try_from(value).map_err(|_| format!("`{name}` = {value} is not a known value"))
}

/// A message with no fields, for enum variants without data.
#[derive(Clone, Copy, PartialEq, Message)]
pub struct Empty {}

// ---- log ----

/// `AccessLog`.
#[derive(Clone, PartialEq, Message)]
pub struct AccessLogMsg {
    /// The records.
    #[prost(message, repeated, tag = "1")]
    pub records: Vec<LogRecordMsg>,
}

/// `LogRecord`.
#[derive(Clone, PartialEq, Message)]
pub struct LogRecordMsg {
    /// Unix milliseconds.
    #[prost(uint64, tag = "1")]
    pub timestamp_ms: u64,
    /// IPv4 address text.
    #[prost(string, tag = "2")]
    pub client: String,
    /// The method.
    #[prost(enumeration = "MethodMsg", tag = "3")]
    pub method: i32,
    /// The path.
    #[prost(string, tag = "4")]
    pub path: String,
    /// The status code.
    #[prost(uint32, tag = "5")]
    pub status: u32,
    /// Body bytes.
    #[prost(uint32, tag = "6")]
    pub bytes_sent: u32,
    /// Microseconds.
    #[prost(uint32, tag = "7")]
    pub latency_us: u32,
    /// The user agent.
    #[prost(string, tag = "8")]
    pub user_agent: String,
    /// The referrer, if any.
    #[prost(string, optional, tag = "9")]
    pub referrer: Option<String>,
}

/// `Method`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Enumeration)]
#[repr(i32)]
pub enum MethodMsg {
    /// GET.
    Get = 0,
    /// POST.
    Post = 1,
    /// PUT.
    Put = 2,
    /// DELETE.
    Delete = 3,
    /// HEAD.
    Head = 4,
}

pub(crate) fn log_to_proto(log: &AccessLog<String>) -> AccessLogMsg {
    AccessLogMsg {
        records: log
            .records
            .iter()
            .map(|r| LogRecordMsg {
                timestamp_ms: r.timestamp_ms,
                client: r.client.clone(),
                method: match r.method {
                    Method::Get => MethodMsg::Get,
                    Method::Post => MethodMsg::Post,
                    Method::Put => MethodMsg::Put,
                    Method::Delete => MethodMsg::Delete,
                    Method::Head => MethodMsg::Head,
                } as i32,
                path: r.path.clone(),
                status: r.status.into(),
                bytes_sent: r.bytes_sent,
                latency_us: r.latency_us,
                user_agent: r.user_agent.clone(),
                referrer: r.referrer.clone(),
            })
            .collect(),
    }
}

pub(crate) fn log_from_proto(msg: AccessLogMsg) -> Result<AccessLog<String>, Invalid> {
    let records = msg
        .records
        .into_iter()
        .map(|r| {
            Ok(LogRecord {
                timestamp_ms: r.timestamp_ms,
                client: r.client,
                method: match enumeration(r.method, "method")? {
                    MethodMsg::Get => Method::Get,
                    MethodMsg::Post => Method::Post,
                    MethodMsg::Put => Method::Put,
                    MethodMsg::Delete => Method::Delete,
                    MethodMsg::Head => Method::Head,
                },
                path: r.path,
                status: narrow(r.status, "status")?,
                bytes_sent: r.bytes_sent,
                latency_us: r.latency_us,
                user_agent: r.user_agent,
                referrer: r.referrer,
            })
        })
        .collect::<Result<_, Invalid>>()?;
    Ok(AccessLog { records })
}

// ---- mesh ----

/// `Mesh`.
#[derive(Clone, PartialEq, Message)]
pub struct MeshMsg {
    /// The triangles.
    #[prost(message, repeated, tag = "1")]
    pub triangles: Vec<TriangleMsg>,
}

/// `Triangle`.
#[derive(Clone, Copy, PartialEq, Message)]
pub struct TriangleMsg {
    /// First corner.
    #[prost(message, optional, tag = "1")]
    pub v0: Option<Vec3Msg>,
    /// Second corner.
    #[prost(message, optional, tag = "2")]
    pub v1: Option<Vec3Msg>,
    /// Third corner.
    #[prost(message, optional, tag = "3")]
    pub v2: Option<Vec3Msg>,
    /// The normal.
    #[prost(message, optional, tag = "4")]
    pub normal: Option<Vec3Msg>,
}

/// `Vec3`.
#[derive(Clone, Copy, PartialEq, Message)]
pub struct Vec3Msg {
    /// x.
    #[prost(float, tag = "1")]
    pub x: f32,
    /// y.
    #[prost(float, tag = "2")]
    pub y: f32,
    /// z.
    #[prost(float, tag = "3")]
    pub z: f32,
}

pub(crate) fn mesh_to_proto(mesh: &Mesh) -> MeshMsg {
    let v = |v: Vec3| {
        Some(Vec3Msg {
            x: v.x,
            y: v.y,
            z: v.z,
        })
    };
    MeshMsg {
        triangles: mesh
            .triangles
            .iter()
            .map(|t| TriangleMsg {
                v0: v(t.v0),
                v1: v(t.v1),
                v2: v(t.v2),
                normal: v(t.normal),
            })
            .collect(),
    }
}

pub(crate) fn mesh_from_proto(msg: MeshMsg) -> Result<Mesh, Invalid> {
    let v = |v: Option<Vec3Msg>, name| {
        present(v, name).map(|v| Vec3 {
            x: v.x,
            y: v.y,
            z: v.z,
        })
    };
    let triangles = msg
        .triangles
        .into_iter()
        .map(|t| {
            Ok(Triangle {
                v0: v(t.v0, "v0")?,
                v1: v(t.v1, "v1")?,
                v2: v(t.v2, "v2")?,
                normal: v(t.normal, "normal")?,
            })
        })
        .collect::<Result<_, Invalid>>()?;
    Ok(Mesh { triangles })
}

// ---- game_save ----

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

pub(crate) fn saves_to_proto(saves: &GameSaves<String>) -> GameSavesMsg {
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

pub(crate) fn saves_from_proto(msg: GameSavesMsg) -> Result<GameSaves<String>, Invalid> {
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

// ---- game_updates ----

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

pub(crate) fn updates_to_proto(updates: &GameUpdates) -> GameUpdatesMsg {
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
                            EntityState::Moving { speed } => EntityStateMsg::Moving(speed.into()),
                            EntityState::Attacking { target } => EntityStateMsg::Attacking(target),
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

pub(crate) fn updates_from_proto(msg: GameUpdatesMsg) -> Result<GameUpdates, Invalid> {
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
