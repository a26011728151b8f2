//! The messages suite's workloads: streams of many small messages, one
//! record of a dataset each.
//!
//! A workload cuts its dataset's records in two. The first ones, a fifth
//! and at most [`TRAINING_MAX`], are the training records: what a format
//! may learn from before a stream starts (a zstd dictionary), and never
//! sent. The rest are the messages, in dataset order. A stream is
//! [`Mode::messages_per_stream`] long; when fewer records are left than
//! that, the stream cycles through them, so records repeat. A repeated
//! record is what every stateful scheme (a zstd stream, a session) profits
//! from most, so how often each record is sent is recorded with the run
//! ([`StreamShape`]) and said on its page, never hidden.

use std::fmt;

use serde::Serialize;
use serde::de::DeserializeOwned;
use surp_datasets::typed::game_updates::EntityUpdate;
use surp_datasets::typed::log::LogRecord;
use surp_datasets::typed::{TypedDataset, TypedValue};
use surp_datasets::{Dataset, Value};

use crate::{BenchDataset, BenchError, Mode};

/// The version of the data the messages suite measures: the versions of
/// the value and typed datasets its workloads are cut from. How a workload
/// is cut is code here; a change to it shows against a baseline as a size
/// change of the project's own formats.
pub const WORKLOAD_DATASET_VERSION: &str = "value 1.0.0, typed 1.0.0";

/// The most records a workload trains on: enough for a zstd dictionary,
/// and few enough that the large datasets keep more than a stream's worth
/// of records to send.
pub const TRAINING_MAX: usize = 1_000;

/// One workload of the messages suite.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Workload {
    /// One record of the typed `log` dataset per message.
    LogRecord,
    /// One entity update of a tick of the typed `game_updates` dataset per
    /// message: its ticks are fewer than a stream's messages, its entity
    /// updates are not, and they are the smallest records of the typed
    /// datasets.
    EntityUpdate,
    /// One element of `small_objects`' top-level array per message.
    SmallObject,
    /// One event of `mixed_api_events` per message.
    ApiEvent,
    /// One status of the `twitter` corpus document per message.
    TwitterStatus,
    /// One event (a value of its `events` map) of the `citm_catalog` corpus
    /// document per message.
    CitmEvent,
}

/// What a stream of a workload is made of, as the run records it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct StreamShape {
    /// The records the dataset has at the run's scale.
    pub records: usize,
    /// The first records, which train and are never sent.
    pub training_records: usize,
    /// The records that are sent, each at least once.
    pub distinct_messages: usize,
    /// The messages in a stream.
    pub messages: usize,
}

impl StreamShape {
    /// Whether the stream sends some records more than once.
    pub fn cycles(&self) -> bool {
        self.messages > self.distinct_messages
    }

    /// How many times each sent record is sent, on average.
    pub fn sends_per_record(&self) -> f64 {
        self.messages as f64 / self.distinct_messages.max(1) as f64
    }
}

/// A workload's records, cut for a stream: the training records and the
/// records to send, which a stream cycles through.
#[derive(Clone, Debug)]
pub(crate) struct Stream<T> {
    training: Vec<T>,
    sent: Vec<T>,
    shape: StreamShape,
}

impl<T> Stream<T> {
    /// Cuts `records` for a stream of `messages`: the first fifth (at most
    /// [`TRAINING_MAX`]) trains, the rest is sent, only as much of it as a
    /// stream reaches.
    fn cut(mut records: Vec<T>, messages: usize) -> Stream<T> {
        let total = records.len();
        let training_records = (total / 5).min(TRAINING_MAX);
        let mut sent = records.split_off(training_records);
        sent.truncate(messages);
        Stream {
            shape: StreamShape {
                records: total,
                training_records,
                distinct_messages: sent.len(),
                messages,
            },
            training: records,
            sent,
        }
    }

    /// The records that train.
    pub(crate) fn training(&self) -> &[T] {
        &self.training
    }

    /// The stream's messages, in order.
    pub(crate) fn messages(&self) -> impl Iterator<Item = &T> + Clone {
        self.sent.iter().cycle().take(self.shape.messages)
    }

    /// How the stream was cut.
    pub(crate) fn shape(&self) -> StreamShape {
        self.shape
    }
}

/// What the messages of a workload are: any serde type that can be compared
/// with what came back.
pub(crate) trait Message:
    Serialize + DeserializeOwned + PartialEq + fmt::Debug + 'static
{
}

impl<T: Serialize + DeserializeOwned + PartialEq + fmt::Debug + 'static> Message for T {}

/// A workload's stream, as its own message type.
#[derive(Clone, Debug)]
pub(crate) enum WorkloadStream {
    /// [`Workload::LogRecord`].
    LogRecords(Stream<LogRecord<String>>),
    /// [`Workload::EntityUpdate`].
    EntityUpdates(Stream<EntityUpdate>),
    /// The workloads of dynamic values.
    Values(Stream<Value>),
}

/// Something to do with a workload's stream, whatever its message type (see
/// [`WorkloadStream::visit`]).
pub(crate) trait StreamVisitor<'w> {
    /// What the visit gives back.
    type Output;
    /// Does it with the stream, as its own message type.
    fn visit<T: Message>(self, stream: &'w Stream<T>) -> Self::Output;
}

impl WorkloadStream {
    /// Hands the stream, as its own message type, to the visitor: the one
    /// match over message types that code generic over [`Message`] needs.
    pub(crate) fn visit<'w, V: StreamVisitor<'w>>(&'w self, visitor: V) -> V::Output {
        match self {
            WorkloadStream::LogRecords(s) => visitor.visit(s),
            WorkloadStream::EntityUpdates(s) => visitor.visit(s),
            WorkloadStream::Values(s) => visitor.visit(s),
        }
    }

    /// How the stream was cut.
    pub(crate) fn shape(&self) -> StreamShape {
        match self {
            WorkloadStream::LogRecords(s) => s.shape(),
            WorkloadStream::EntityUpdates(s) => s.shape(),
            WorkloadStream::Values(s) => s.shape(),
        }
    }
}

impl Workload {
    /// Every workload, typed ones first, in the order reports list them.
    pub const ALL: [Workload; 6] = [
        Workload::LogRecord,
        Workload::EntityUpdate,
        Workload::SmallObject,
        Workload::ApiEvent,
        Workload::TwitterStatus,
        Workload::CitmEvent,
    ];

    /// The name in reports, CSV files and on the command line: what one
    /// message is, distinct from every dataset's name.
    pub fn name(self) -> &'static str {
        match self {
            Workload::LogRecord => "log_record",
            Workload::EntityUpdate => "entity_update",
            Workload::SmallObject => "small_object",
            Workload::ApiEvent => "api_event",
            Workload::TwitterStatus => "twitter_status",
            Workload::CitmEvent => "citm_event",
        }
    }

    /// The workload with this name, if there is one.
    pub fn from_name(name: &str) -> Option<Workload> {
        Workload::ALL.into_iter().find(|w| w.name() == name)
    }

    /// The dataset whose records are the messages.
    pub fn dataset(self) -> BenchDataset {
        match self {
            Workload::LogRecord => BenchDataset::Typed(TypedDataset::Log),
            Workload::EntityUpdate => BenchDataset::Typed(TypedDataset::GameUpdates),
            Workload::SmallObject => Dataset::SmallObjects.into(),
            Workload::ApiEvent => Dataset::MixedApiEvents.into(),
            Workload::TwitterStatus => Dataset::Twitter.into(),
            Workload::CitmEvent => Dataset::CitmCatalog.into(),
        }
    }

    /// Whether the messages are derived Rust types (the typed suite's
    /// datasets) rather than dynamic values. Formats that need the schema
    /// take part only in these.
    pub fn is_typed(self) -> bool {
        matches!(self.dataset(), BenchDataset::Typed(_))
    }

    /// One line: what one message is.
    pub fn description(self) -> &'static str {
        match self {
            Workload::LogRecord => "one `LogRecord` of the typed `log` dataset per message",
            Workload::EntityUpdate => {
                "one `EntityUpdate` of a tick of the typed `game_updates` dataset per message"
            }
            Workload::SmallObject => {
                "one user object of `small_objects` per message, as a dynamic value"
            }
            Workload::ApiEvent => "one event of `mixed_api_events` per message, as a dynamic value",
            Workload::TwitterStatus => {
                "one status of the `twitter` corpus document per message, as a dynamic value"
            }
            Workload::CitmEvent => {
                "one event of the `citm_catalog` corpus document per message, as a dynamic value"
            }
        }
    }

    /// Loads the dataset (verified against its manifest) and cuts it for a
    /// stream of the mode's length.
    pub(crate) fn load(self, mode: Mode) -> Result<WorkloadStream, BenchError> {
        let messages = mode.messages_per_stream();
        let scale = mode.scale();
        let not_shaped = |what: &str| BenchError::Workload {
            workload: self,
            message: format!("the dataset {} is not {what}", self.dataset()),
        };
        let stream = match self.dataset() {
            BenchDataset::Typed(dataset) => match dataset.load(scale)? {
                TypedValue::Log(log) => {
                    WorkloadStream::LogRecords(Stream::cut(log.records, messages))
                }
                TypedValue::GameUpdates(updates) => {
                    let entities = updates.ticks.into_iter().flat_map(|t| t.entities);
                    WorkloadStream::EntityUpdates(Stream::cut(entities.collect(), messages))
                }
                _ => return Err(not_shaped("a log or game updates")),
            },
            BenchDataset::Value(dataset) => {
                let value = dataset.load(scale)?;
                let records = match self {
                    Workload::TwitterStatus => match value.get("statuses") {
                        Some(Value::Array(statuses)) => statuses.clone(),
                        _ => return Err(not_shaped("a map with a `statuses` array")),
                    },
                    Workload::CitmEvent => match value.get("events") {
                        Some(Value::Map(events)) => {
                            events.iter().map(|(_, event)| event.clone()).collect()
                        }
                        _ => return Err(not_shaped("a map with an `events` map")),
                    },
                    _ => match value {
                        Value::Array(items) => items,
                        _ => return Err(not_shaped("an array")),
                    },
                };
                WorkloadStream::Values(Stream::cut(records, messages))
            }
            BenchDataset::Messages(_) => return Err(not_shaped("a dataset of records")),
        };
        Ok(stream)
    }
}

impl fmt::Display for Workload {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_workload_version_names_the_dataset_versions() {
        assert_eq!(
            WORKLOAD_DATASET_VERSION,
            format!(
                "value {}, typed {}",
                surp_datasets::DATASET_VERSION,
                surp_datasets::typed::TYPED_DATASET_VERSION
            )
        );
    }

    #[test]
    fn names_are_unique_and_found() {
        for (i, w) in Workload::ALL.iter().enumerate() {
            assert_eq!(Workload::from_name(w.name()), Some(*w));
            assert!(Workload::ALL[..i].iter().all(|o| o.name() != w.name()));
        }
        assert_eq!(Workload::from_name("log"), None);
    }

    #[test]
    fn a_cut_trains_on_the_first_fifth_and_sends_the_rest_in_order() {
        let stream = Stream::cut((0..100).collect(), 30);
        assert_eq!(stream.training(), (0..20).collect::<Vec<_>>());
        let sent: Vec<i32> = stream.messages().copied().collect();
        assert_eq!(sent, (20..50).collect::<Vec<_>>());
        assert!(!stream.shape().cycles());
        assert_eq!(stream.shape().distinct_messages, 30);
    }

    #[test]
    fn a_cut_with_too_few_records_cycles_and_says_so() {
        let stream = Stream::cut((0..10).collect(), 25);
        assert_eq!(stream.training(), [0, 1]);
        let sent: Vec<i32> = stream.messages().copied().collect();
        assert_eq!(sent.len(), 25);
        assert_eq!(sent[..8], [2, 3, 4, 5, 6, 7, 8, 9]);
        assert_eq!(sent[8..16], sent[..8]);
        let shape = stream.shape();
        assert!(shape.cycles());
        assert_eq!(shape.distinct_messages, 8);
        assert_eq!(shape.sends_per_record(), 25.0 / 8.0);
    }

    #[test]
    fn training_is_capped() {
        let stream = Stream::cut((0..20_000).collect(), 10);
        assert_eq!(stream.training().len(), TRAINING_MAX);
        assert_eq!(stream.messages().next(), Some(&(TRAINING_MAX as i32)));
    }

    #[test]
    fn every_workload_streams_its_records_at_ci_scale() {
        for workload in Workload::ALL {
            let stream = workload.load(Mode::Ci).unwrap();
            let shape = stream.shape();
            assert_eq!(shape.messages, Mode::Ci.messages_per_stream(), "{workload}");
            assert!(shape.training_records > 0, "{workload}");
            assert!(shape.distinct_messages > 0, "{workload}");
            assert!(
                shape.training_records + shape.distinct_messages <= shape.records,
                "{workload}"
            );
            let typed = !matches!(stream, WorkloadStream::Values(_));
            assert_eq!(typed, workload.is_typed(), "{workload}");
        }
    }

    #[test]
    fn the_corpus_workloads_are_one_status_or_event_each() {
        let WorkloadStream::Values(statuses) = Workload::TwitterStatus.load(Mode::Ci).unwrap()
        else {
            panic!("twitter statuses are values");
        };
        assert_eq!(statuses.shape().records, 100);
        assert!(statuses.shape().cycles());
        let first = statuses.messages().next().unwrap();
        assert!(first.get("id_str").is_some() && first.get("user").is_some());

        let WorkloadStream::Values(events) = Workload::CitmEvent.load(Mode::Ci).unwrap() else {
            panic!("citm events are values");
        };
        assert_eq!(events.shape().records, 184);
        let first = events.messages().next().unwrap();
        assert!(first.get("id").is_some() && first.get("subTopicIds").is_some());
    }
}
