//! `mixed_api_events`: objects shaped like GitHub's public events API; a
//! realistic API payload mixing scalars, nested objects and arrays, with key
//! sets that differ by event kind.
//!
//! Every event has `id` (a numeric string, as GitHub sends it), `type`,
//! `actor{id, login, display_login, gravatar_id, url, avatar_url}`,
//! `repo{id, name, url}`, `payload{...}`, `public` and `created_at`, and about
//! a third also an `org{...}`. Actors and repositories come from fixed
//! populations, so the same logins and URLs recur as they do in a real feed.

use super::draw::Draw;
use super::timestamp::{EPOCH_2024_03_01, iso8601};
use super::vocabulary::{ADJECTIVES, FAMILY_NAMES, GIVEN_NAMES, MAIL_DOMAINS, NOUNS, VERBS};
use crate::{Scale, Value};

pub(crate) fn count(scale: Scale) -> u64 {
    scale.pick(250, 5_000)
}

const ACTORS: usize = 400;
const REPOS: usize = 300;
const ORGS: usize = 25;

/// Event kinds with their relative frequency in a public feed.
const KINDS: [(&str, u64); 8] = [
    ("PushEvent", 40),
    ("CreateEvent", 10),
    ("DeleteEvent", 4),
    ("WatchEvent", 12),
    ("ForkEvent", 4),
    ("IssuesEvent", 8),
    ("IssueCommentEvent", 10),
    ("PullRequestEvent", 12),
];

const LABELS: [(u64, &str, &str); 8] = [
    (1_049_871, "bug", "d73a4a"),
    (1_049_872, "enhancement", "a2eeef"),
    (1_049_873, "documentation", "0075ca"),
    (1_049_874, "good first issue", "7057ff"),
    (1_049_875, "help wanted", "008672"),
    (1_049_876, "question", "d876e3"),
    (1_049_877, "duplicate", "cfd3d7"),
    (1_049_878, "wontfix", "ffffff"),
];

const ASSOCIATIONS: [&str; 4] = ["OWNER", "MEMBER", "CONTRIBUTOR", "NONE"];

struct Actor {
    id: u64,
    login: String,
    name: String,
    email: String,
}

struct Repo {
    id: u64,
    owner: String,
    name: String,
}

/// Everything an event may refer to, drawn once before the events.
struct World {
    actors: Vec<Actor>,
    repos: Vec<Repo>,
    orgs: Vec<Actor>,
}

pub(crate) fn generate(seed: u64, scale: Scale) -> Value {
    let mut draw = Draw::new(seed);
    let world = world(&mut draw);
    let mut seconds = EPOCH_2024_03_01;
    let mut event_id = 36_180_000_000;
    let events = (0..count(scale))
        .map(|_| {
            seconds += draw.between(0, 20);
            event_id += draw.between(1, 40);
            event(&mut draw, &world, event_id, seconds)
        })
        .collect();
    Value::Array(events)
}

fn world(draw: &mut Draw) -> World {
    let actors: Vec<Actor> = (0..ACTORS).map(|_| actor(draw)).collect();
    let orgs: Vec<Actor> = (0..ORGS)
        .map(|_| {
            let login = format!("{}-{}", draw.pick(ADJECTIVES), draw.pick(NOUNS));
            Actor {
                id: draw.between(1_000_000, 160_000_000),
                name: login.clone(),
                email: format!("team@{login}.dev"),
                login,
            }
        })
        .collect();
    let repos = (0..REPOS)
        .map(|_| {
            let owner = if draw.chance(0.4) {
                draw.pick(&orgs).login.clone()
            } else {
                draw.pick(&actors).login.clone()
            };
            let name = match draw.index(3) {
                0 => format!("{}-{}", draw.pick(ADJECTIVES), draw.pick(NOUNS)),
                1 => format!("{}-rs", draw.pick(NOUNS)),
                _ => (*draw.pick(NOUNS)).to_owned(),
            };
            Repo {
                id: draw.between(10_000, 800_000_000),
                owner,
                name,
            }
        })
        .collect();
    World {
        actors,
        repos,
        orgs,
    }
}

fn actor(draw: &mut Draw) -> Actor {
    let &(given, given_ascii) = draw.pick(GIVEN_NAMES);
    let &(family, family_ascii) = draw.pick(FAMILY_NAMES);
    let login = match draw.index(4) {
        0 => format!("{given_ascii}{family_ascii}"),
        1 => format!("{given_ascii}-{family_ascii}"),
        2 => format!("{}{family_ascii}{}", &given_ascii[..1], draw.between(1, 99)),
        _ => format!("{}-{given_ascii}", draw.pick(ADJECTIVES)),
    };
    Actor {
        id: draw.between(1_000, 160_000_000),
        email: format!("{given_ascii}.{family_ascii}@{}", draw.pick(MAIL_DOMAINS)),
        name: format!("{given} {family}"),
        login,
    }
}

fn string(s: impl Into<String>) -> Value {
    Value::String(s.into())
}

fn map(entries: Vec<(&str, Value)>) -> Value {
    Value::Map(
        entries
            .into_iter()
            .map(|(k, v)| (k.to_owned(), v))
            .collect(),
    )
}

fn event(draw: &mut Draw, world: &World, id: u64, seconds: u64) -> Value {
    let kind = KINDS[draw.weighted(&KINDS.map(|(_, w)| w))].0;
    let actor = draw.pick(&world.actors);
    let repo = draw.pick(&world.repos);
    let payload = match kind {
        "PushEvent" => push(draw, repo, actor),
        "CreateEvent" => create(draw),
        "DeleteEvent" => delete(draw),
        "WatchEvent" => map(vec![("action", string("started"))]),
        "ForkEvent" => fork(draw, repo, actor, seconds),
        "IssuesEvent" => issues(draw, seconds),
        "IssueCommentEvent" => issue_comment(draw, seconds),
        _ => pull_request(draw),
    };
    let mut fields = vec![
        ("id", string(id.to_string())),
        ("type", string(kind)),
        ("actor", actor_value(actor)),
        (
            "repo",
            map(vec![
                ("id", Value::U64(repo.id)),
                ("name", string(format!("{}/{}", repo.owner, repo.name))),
                (
                    "url",
                    string(format!(
                        "https://api.github.com/repos/{}/{}",
                        repo.owner, repo.name
                    )),
                ),
            ]),
        ),
        ("payload", payload),
        ("public", Value::Bool(draw.chance(0.97))),
        ("created_at", string(iso8601(seconds))),
    ];
    if draw.chance(0.3) {
        let org = draw.pick(&world.orgs);
        fields.push(("org", actor_value(org)));
    }
    map(fields)
}

fn actor_value(actor: &Actor) -> Value {
    map(vec![
        ("id", Value::U64(actor.id)),
        ("login", string(&actor.login)),
        ("display_login", string(&actor.login)),
        ("gravatar_id", string("")),
        (
            "url",
            string(format!("https://api.github.com/users/{}", actor.login)),
        ),
        (
            "avatar_url",
            string(format!(
                "https://avatars.githubusercontent.com/u/{}?",
                actor.id
            )),
        ),
    ])
}

fn branch(draw: &mut Draw) -> String {
    match draw.weighted(&[5, 1, 3, 2]) {
        0 => "main".to_owned(),
        1 => "develop".to_owned(),
        2 => format!("feature/{}-{}", draw.pick(NOUNS), draw.pick(NOUNS)),
        _ => format!("fix/{}", draw.pick(NOUNS)),
    }
}

/// A one-line summary like "Fix cache eviction in scheduler".
fn sentence(draw: &mut Draw) -> String {
    let verb = draw.pick(VERBS);
    let mut title = verb[..1].to_uppercase();
    title.push_str(&verb[1..]);
    match draw.index(3) {
        0 => format!("{title} {} {}", draw.pick(NOUNS), draw.pick(NOUNS)),
        1 => format!(
            "{title} {} in {} ({} {})",
            draw.pick(NOUNS),
            draw.pick(NOUNS),
            draw.pick(ADJECTIVES),
            draw.pick(NOUNS)
        ),
        _ => format!("{title} {} {}", draw.pick(ADJECTIVES), draw.pick(NOUNS)),
    }
}

fn push(draw: &mut Draw, repo: &Repo, actor: &Actor) -> Value {
    let commit_count = 1 + draw.weighted(&[60, 20, 10, 6, 4]) as u64;
    let commits = (0..commit_count)
        .map(|_| {
            let sha = draw.hex(40);
            let url = format!(
                "https://api.github.com/repos/{}/{}/commits/{sha}",
                repo.owner, repo.name
            );
            map(vec![
                ("sha", string(sha)),
                (
                    "author",
                    map(vec![
                        ("email", string(&actor.email)),
                        ("name", string(&actor.name)),
                    ]),
                ),
                ("message", string(sentence(draw))),
                ("distinct", Value::Bool(draw.chance(0.9))),
                ("url", string(url)),
            ])
        })
        .collect();
    map(vec![
        ("repository_id", Value::U64(repo.id)),
        (
            "push_id",
            Value::U64(draw.between(17_000_000_000, 18_000_000_000)),
        ),
        ("size", Value::U64(commit_count)),
        ("distinct_size", Value::U64(commit_count)),
        ("ref", string(format!("refs/heads/{}", branch(draw)))),
        ("head", string(draw.hex(40))),
        ("before", string(draw.hex(40))),
        ("commits", Value::Array(commits)),
    ])
}

fn create(draw: &mut Draw) -> Value {
    let (ref_name, ref_type) = match draw.weighted(&[6, 3, 1]) {
        0 => (string(branch(draw)), "branch"),
        1 => (
            string(format!(
                "v{}.{}.{}",
                draw.between(0, 3),
                draw.between(0, 20),
                draw.between(0, 9)
            )),
            "tag",
        ),
        _ => (Value::Null, "repository"),
    };
    let description = if draw.chance(0.6) {
        string(sentence(draw))
    } else {
        Value::Null
    };
    map(vec![
        ("ref", ref_name),
        ("ref_type", string(ref_type)),
        ("master_branch", string("main")),
        ("description", description),
        ("pusher_type", string("user")),
    ])
}

fn delete(draw: &mut Draw) -> Value {
    map(vec![
        ("ref", string(branch(draw))),
        ("ref_type", string("branch")),
        ("pusher_type", string("user")),
    ])
}

fn fork(draw: &mut Draw, repo: &Repo, actor: &Actor, seconds: u64) -> Value {
    map(vec![(
        "forkee",
        map(vec![
            ("id", Value::U64(draw.between(700_000_000, 900_000_000))),
            ("name", string(&repo.name)),
            (
                "full_name",
                string(format!("{}/{}", actor.login, repo.name)),
            ),
            ("private", Value::Bool(false)),
            (
                "owner",
                map(vec![
                    ("login", string(&actor.login)),
                    ("id", Value::U64(actor.id)),
                ]),
            ),
            ("fork", Value::Bool(true)),
            ("created_at", string(iso8601(seconds))),
            ("stargazers_count", Value::U64(0)),
            ("default_branch", string("main")),
        ]),
    )])
}

fn labels(draw: &mut Draw) -> Value {
    let n = draw.weighted(&[50, 35, 15]);
    Value::Array(
        (0..n)
            .map(|_| {
                let &(id, name, color) = draw.pick(&LABELS);
                map(vec![
                    ("id", Value::U64(id)),
                    ("name", string(name)),
                    ("color", string(color)),
                ])
            })
            .collect(),
    )
}

fn issues(draw: &mut Draw, seconds: u64) -> Value {
    let action = *draw.pick(&["opened", "opened", "closed", "reopened"]);
    let body = if draw.chance(0.7) {
        string(format!(
            "{}.\n\nSteps to reproduce: run the {} with {} {}s.",
            sentence(draw),
            draw.pick(NOUNS),
            draw.between(2, 500),
            draw.pick(NOUNS)
        ))
    } else {
        Value::Null
    };
    map(vec![
        ("action", string(action)),
        (
            "issue",
            map(vec![
                ("id", Value::U64(draw.between(1_000_000_000, 2_500_000_000))),
                ("number", Value::U64(draw.between(1, 30_000))),
                ("title", string(sentence(draw))),
                (
                    "state",
                    string(if action == "closed" { "closed" } else { "open" }),
                ),
                ("locked", Value::Bool(false)),
                ("labels", labels(draw)),
                ("comments", Value::U64(draw.between(0, 40))),
                (
                    "created_at",
                    string(iso8601(seconds - draw.between(0, 9_000_000))),
                ),
                ("body", body),
            ]),
        ),
    ])
}

fn issue_comment(draw: &mut Draw, seconds: u64) -> Value {
    map(vec![
        ("action", string("created")),
        (
            "issue",
            map(vec![
                ("number", Value::U64(draw.between(1, 30_000))),
                ("title", string(sentence(draw))),
                ("state", string(*draw.pick(&["open", "open", "closed"]))),
            ]),
        ),
        (
            "comment",
            map(vec![
                ("id", Value::U64(draw.between(1_900_000_000, 2_100_000_000))),
                (
                    "body",
                    string(format!(
                        "Thanks! I think the {} should {} the {} first.",
                        draw.pick(NOUNS),
                        draw.pick(VERBS),
                        draw.pick(NOUNS)
                    )),
                ),
                ("created_at", string(iso8601(seconds))),
                ("author_association", string(*draw.pick(&ASSOCIATIONS))),
            ]),
        ),
    ])
}

fn pull_request(draw: &mut Draw) -> Value {
    let action = *draw.pick(&["opened", "closed", "synchronize", "reopened"]);
    let number = draw.between(1, 30_000);
    let merged = action == "closed" && draw.chance(0.7);
    map(vec![
        ("action", string(action)),
        ("number", Value::U64(number)),
        (
            "pull_request",
            map(vec![
                ("id", Value::U64(draw.between(1_500_000_000, 1_900_000_000))),
                ("number", Value::U64(number)),
                (
                    "state",
                    string(if action == "closed" { "closed" } else { "open" }),
                ),
                ("title", string(sentence(draw))),
                ("draft", Value::Bool(draw.chance(0.15))),
                ("merged", Value::Bool(merged)),
                ("additions", Value::U64(draw.between(0, 2_000))),
                ("deletions", Value::U64(draw.between(0, 800))),
                ("changed_files", Value::U64(draw.between(1, 60))),
                ("commits", Value::U64(draw.between(1, 25))),
                ("labels", labels(draw)),
            ]),
        ),
    ])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_appears_and_payload_key_sets_differ_by_kind() {
        use std::collections::BTreeMap;

        let Value::Array(events) = generate(4, Scale::Ci) else {
            panic!("mixed_api_events is an array");
        };
        let mut key_sets: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for event in &events {
            let Some(Value::String(kind)) = event.get("type") else {
                panic!("an event has a type")
            };
            let Some(Value::Map(payload)) = event.get("payload") else {
                panic!("an event has a payload map")
            };
            let keys = payload.iter().map(|(k, _)| k.clone()).collect();
            key_sets.entry(kind.clone()).or_insert(keys);
        }
        assert_eq!(key_sets.len(), KINDS.len());
        let mut distinct: Vec<_> = key_sets.values().collect();
        distinct.sort();
        distinct.dedup();
        // Each kind has a key set of its own.
        assert_eq!(distinct.len(), KINDS.len());
    }
}
