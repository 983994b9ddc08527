//! The domain vocabulary of generated sessions: tools, files, commands, failures, roles.

use super::rng::Rng;
use super::text::WORDS;

/// A tool the simulated agent calls: its name, how it draws its input, and its result text.
pub struct Tool {
    pub name: &'static str,
    pub out: &'static str,
    input: fn(&mut Rng) -> String,
}

impl Tool {
    /// The tool's input, a JSON text as a string (draws from `rng` like the reference).
    pub fn input(&self, rng: &mut Rng) -> String {
        (self.input)(rng)
    }
}

fn pick(rng: &mut Rng, list: &[&'static str]) -> &'static str {
    rng.pick(list).copied().unwrap_or("")
}

pub const TOOLS: &[Tool] = &[
    Tool {
        name: "read_file",
        out: "Read 214 lines.",
        input: |r| format!("{{\"path\":\"{}\"}}", pick(r, FILES)),
    },
    Tool {
        name: "write_file",
        out: "File written.",
        input: |r| {
            let path = pick(r, FILES);
            format!("{{\"path\":\"{path}\",\"bytes\":{}}}", r.int(200, 9000))
        },
    },
    Tool {
        name: "edit_file",
        out: "Applied edits.",
        input: |r| {
            let path = pick(r, FILES);
            format!("{{\"path\":\"{path}\",\"edits\":{}}}", r.int(1, 6))
        },
    },
    Tool {
        name: "bash",
        out: "exit 0",
        input: |r| format!("{{\"command\":\"{}\"}}", pick(r, COMMANDS)),
    },
    Tool {
        name: "grep",
        out: "12 matches in 4 files.",
        input: |r| format!("{{\"pattern\":\"{}\",\"path\":\"src\"}}", pick(r, WORDS)),
    },
    Tool {
        name: "web_search",
        out: "5 results.",
        input: |r| {
            let a = pick(r, WORDS);
            let b = pick(r, WORDS);
            format!("{{\"query\":\"{a} {b} docs\"}}")
        },
    },
    Tool {
        name: "web_fetch",
        out: "Fetched 18 KB.",
        input: |_| "{\"url\":\"https://docs.example.com/guide\"}".to_string(),
    },
    Tool {
        name: "mcp__github__search_issues",
        out: "7 issues.",
        input: |r| format!("{{\"q\":\"{} is:open\"}}", pick(r, WORDS)),
    },
    Tool {
        name: "mcp__browser__navigate",
        out: "Page loaded.",
        input: |_| "{\"url\":\"http://localhost:5173/\"}".to_string(),
    },
];

pub const FILES: &[&str] = &[
    "src/App.tsx",
    "src/index.ts",
    "src/state/store.ts",
    "src/state/reducer.ts",
    "src/components/Timeline.tsx",
    "src/components/MessageList.tsx",
    "src/components/ToolCard.tsx",
    "src/lib/projection.ts",
    "src/lib/events.ts",
    "src/lib/format.ts",
    "tests/projection.test.ts",
    "tests/events.test.ts",
    "docs/README.md",
    "package.json",
    "Cargo.toml",
    "crates/core/src/lib.rs",
];

pub const COMMANDS: &[&str] = &[
    "npm test",
    "npm run lint",
    "npm run build",
    "cargo test",
    "cargo build --release",
    "git status",
    "git diff --stat",
    "ls -la src",
];

pub const FAILURES: &[&str] = &[
    "timeout",
    "permission_denied",
    "not_found",
    "exit_nonzero",
    "invalid_arguments",
];

pub const ROLES: &[&str] = &["researcher", "reviewer", "tester", "planner"];

/// The MIME type of a file path, by its extension.
pub fn mime_of(path: &str) -> &'static str {
    let ext = path.rsplit_once('.').map_or(path, |(_, e)| e);
    match ext {
        "ts" | "tsx" => "text/typescript",
        "md" => "text/markdown",
        "json" => "application/json",
        "rs" => "text/rust",
        _ => "text/plain",
    }
}
