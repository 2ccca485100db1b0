//! The layers of the workspace (docs/architecture.md) that Cargo does not hold by itself.
//!
//! Cargo holds that a crate uses only the crates its manifest names; which crates a manifest
//! may name is a rule of ours: every manifest under `crates/` (and the root's) is read, and the
//! test fails on a dependency that goes the wrong way (a crate naming one of its own layer or
//! one above: a tool naming another tool). Inside each crate, every `.rs` file of its `src/` is
//! read and its imports collected: the test fails on a cycle between files, on an import that
//! breaks one of the match runner's rules between its parts, and on I/O in the rules core.
//!
//! What counts as an import: the paths of `use` declarations (grouped trees, `self`, `as`, `*`)
//! and the paths in code that start with `crate::`, `super::`, `self::`, a child module's name
//! or a name a `use` bound to a module. Comments, string and character literals, and items
//! under `#[cfg(test)]` (tests may import anything) are left out. A path is resolved to the
//! longest prefix that is a module; a name a module brings in with `use` (`crate::Match`,
//! re-exported by `lib.rs`) is followed to where it comes from. Paths into other crates are
//! the manifests' business. Only std: no parser crate.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::path::Path;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// The crates' layers, bottom to top: a crate may depend on the crates of the layers below its
/// own, never on one of its own layer or above.
const LAYERS: &[(&str, &[&str])] = &[
    ("the rules core", &["saikoro-core"]),
    (
        "the protocol, the records and the output files",
        &["saikoro-usi", "saikoro-record", "saikoro-outfile"],
    ),
    ("the driver", &["saikoro-driver"]),
    (
        "the engine and the tools",
        &[
            "saikoro-engine",
            "saikoro-match",
            "saikoro-check",
            "saikoro-csa",
        ],
    ),
    ("the binary", &["saikoro"]),
];

/// The layer of the crate `name`; `None` for a crate that is not ours.
fn crate_layer(name: &str) -> Option<usize> {
    LAYERS.iter().position(|(_, names)| names.contains(&name))
}

/// Our crates a manifest names, in its normal dependencies (`[dependencies]` and the
/// `[target.….dependencies]` tables) and in its dev-dependencies.
fn manifest_deps(text: &str) -> (BTreeSet<String>, BTreeSet<String>) {
    let (mut normal, mut dev) = (BTreeSet::new(), BTreeSet::new());
    let mut table = String::new();
    for line in text.lines().map(str::trim) {
        if line.starts_with('[') {
            table = line.trim_matches(|c| c == '[' || c == ']').to_string();
            continue;
        }
        let name = line
            .split(|c: char| c == '=' || c == '.' || c.is_whitespace())
            .next()
            .unwrap_or("");
        if !name.starts_with("saikoro") || line.starts_with('#') {
            continue;
        }
        if table == "dependencies" || table.ends_with(".dependencies") {
            normal.insert(name.to_string());
        } else if table == "dev-dependencies" || table.ends_with(".dev-dependencies") {
            dev.insert(name.to_string());
        }
    }
    (normal, dev)
}

/// The dependencies between our crates that break the layers, one line each: `manifests` are
/// each crate's name and manifest text.
fn crate_violations(manifests: &[(String, String)]) -> Vec<String> {
    let mut out = Vec::new();
    for (name, text) in manifests {
        let Some(from) = crate_layer(name) else {
            out.push(format!(
                "{name}: a crate of no layer (docs/architecture.md)"
            ));
            continue;
        };
        let (normal, dev) = manifest_deps(text);
        for (dep, kind) in normal
            .iter()
            .map(|d| (d, "depends on"))
            .chain(dev.iter().map(|d| (d, "has as a dev-dependency")))
        {
            match crate_layer(dep) {
                None => out.push(format!("{name} {kind} {dep}, a crate of no layer")),
                Some(to) if to >= from && from + 1 < LAYERS.len() => out.push(format!(
                    "{name} {kind} {dep} ({} may not depend on {}{})",
                    LAYERS[from].0,
                    if to == from {
                        "each other"
                    } else {
                        LAYERS[to].0
                    },
                    if kind == "depends on" {
                        ""
                    } else {
                        ": the crate would be linked twice"
                    }
                )),
                Some(_) => {}
            }
        }
    }
    out
}

/// A rule on one import `from → to` inside a crate (the importing file's module, the imported
/// module): the reason it is broken, or `None`.
type Broken = fn(&Module, &Module) -> Option<String>;

/// The rules between the parts of the match runner (`crates/saikoro-match`).
const MATCH_RULES: &[Broken] = &[
    scheduler_only_from_the_root,
    stats_alone,
    game_below_run_and_output,
    output_below_run,
];

/// The crate's root (`lib.rs`) may name the scheduler, the driver of the match. A name
/// re-exported by `lib.rs` counts where it comes from: a part that takes the scheduler's
/// `Match` through `crate::Match` still imports the scheduler.
fn scheduler_only_from_the_root(from: &Module, to: &Module) -> Option<String> {
    let scheduler = "run::scheduler";
    let inside = !from.path.is_empty() && !from.under(scheduler);
    (inside && to.under(scheduler)).then(|| {
        "only the crate's root (lib.rs) imports run::scheduler, the driver of the match".to_string()
    })
}

fn stats_alone(from: &Module, to: &Module) -> Option<String> {
    (from.under("stats") && !to.path.is_empty() && !to.under("stats"))
        .then(|| "stats imports no other part of the match".to_string())
}

fn game_below_run_and_output(from: &Module, to: &Module) -> Option<String> {
    (from.under("game") && (to.under("run") || to.under("output")))
        .then(|| "game imports neither run nor output".to_string())
}

fn output_below_run(from: &Module, to: &Module) -> Option<String> {
    (from.under("output") && to.under("run")).then(|| "output does not import run".to_string())
}

/// The paths that do I/O, which the rules core never names (outside its tests): std's modules
/// of files, processes, the network, the environment and the standard streams, and the
/// printing macros.
const IO: &[&[&str]] = &[
    &["std", "::", "io"],
    &["std", "::", "fs"],
    &["std", "::", "net"],
    &["std", "::", "process"],
    &["std", "::", "env"],
    &["std", "::", "thread"],
    &["std", "::", "time"],
    &["println", "!"],
    &["print", "!"],
    &["eprintln", "!"],
    &["eprint", "!"],
    &["dbg", "!"],
];

/// Where the rules core's file `text` does I/O (outside its tests): the paths of [`IO`] it
/// names.
fn io_in(text: &str) -> Vec<String> {
    let (toks, _) = without_tests(tokens(&strip(text)));
    let mut found = BTreeSet::new();
    for i in 0..toks.len() {
        for io in IO {
            if toks[i..].starts_with(&io.iter().map(|s| s.to_string()).collect::<Vec<_>>()) {
                found.insert(io.concat());
            }
        }
    }
    found.into_iter().collect()
}

/// A module, by its path from its crate's root.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
struct Module {
    path: Vec<String>,
}

impl Module {
    fn new(path: &[&str]) -> Module {
        Module {
            path: path.iter().map(|s| s.to_string()).collect(),
        }
    }

    /// Whether this is the module `path` (`a::b`) or one inside it.
    fn under(&self, path: &str) -> bool {
        let segs: Vec<&str> = path.split("::").collect();
        self.path.len() >= segs.len() && self.path.iter().zip(&segs).all(|(a, b)| a == b)
    }

    /// Whether `other` is strictly inside this module.
    fn contains(&self, other: &Module) -> bool {
        other.path.len() > self.path.len() && other.path.starts_with(&self.path)
    }

    fn child(&self, name: &str) -> Module {
        let mut m = self.clone();
        m.path.push(name.to_string());
        m
    }
}

impl fmt::Display for Module {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.path.is_empty() {
            true => f.write_str("crate"),
            false => f.write_str(&self.path.join("::")),
        }
    }
}

/// The module of the file `name` (relative to its crate's `src/`, with `/`): `a/b.rs` and
/// `a/b/mod.rs` are `a::b`; `lib.rs` and `main.rs` are the crate's root.
fn module_of(name: &str) -> Module {
    let mut segs: Vec<&str> = name.trim_end_matches(".rs").split('/').collect();
    if segs.last() == Some(&"mod") || segs == ["lib"] || segs == ["main"] {
        segs.pop();
    }
    Module::new(&segs)
}

/// `text` without comments (line, block, doc) and string, byte-string and character literals,
/// each replaced by a space. Lifetimes stay.
fn strip(text: &str) -> String {
    let c: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    let ident = |k: usize| k > 0 && (c[k - 1].is_alphanumeric() || c[k - 1] == '_');
    while i < c.len() {
        let next = c.get(i + 1).copied();
        if c[i] == '/' && next == Some('/') {
            while i < c.len() && c[i] != '\n' {
                i += 1;
            }
            out.push(' ');
        } else if c[i] == '/' && next == Some('*') {
            let mut depth = 0;
            while i < c.len() {
                if c[i] == '/' && c.get(i + 1) == Some(&'*') {
                    depth += 1;
                    i += 2;
                } else if c[i] == '*' && c.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
            out.push(' ');
        } else if (c[i] == 'r' || (c[i] == 'b' && next == Some('r'))) && !ident(i) && {
            let mut k = if c[i] == 'b' { i + 2 } else { i + 1 };
            while c.get(k) == Some(&'#') {
                k += 1;
            }
            c.get(k) == Some(&'"')
        } {
            // A raw string: r"…", r#"…"#, br"…".
            let mut k = if c[i] == 'b' { i + 2 } else { i + 1 };
            let mut hashes = 0;
            while c[k] == '#' {
                hashes += 1;
                k += 1;
            }
            k += 1;
            while k < c.len() && !(c[k] == '"' && (1..=hashes).all(|h| c.get(k + h) == Some(&'#')))
            {
                k += 1;
            }
            i = k + 1 + hashes;
            out.push(' ');
        } else if c[i] == '"' {
            i += 1;
            while i < c.len() && c[i] != '"' {
                i += if c[i] == '\\' { 2 } else { 1 };
            }
            i += 1;
            out.push(' ');
        } else if c[i] == '\'' && (next == Some('\\') || c.get(i + 2) == Some(&'\'')) {
            // A character literal ('x', '\n', '\u{3042}'); 'a alone is a lifetime.
            i += 1;
            while i < c.len() && c[i] != '\'' {
                i += if c[i] == '\\' { 2 } else { 1 };
            }
            i += 1;
            out.push(' ');
        } else {
            out.push(c[i]);
            i += 1;
        }
    }
    out
}

/// The tokens of stripped code: identifiers, `::`, and single punctuation characters.
fn tokens(code: &str) -> Vec<String> {
    let c: Vec<char> = code.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < c.len() {
        if c[i].is_alphanumeric() || c[i] == '_' {
            let start = i;
            while i < c.len() && (c[i].is_alphanumeric() || c[i] == '_') {
                i += 1;
            }
            out.push(c[start..i].iter().collect());
        } else if c[i] == ':' && c.get(i + 1) == Some(&':') {
            out.push("::".to_string());
            i += 2;
        } else {
            if !c[i].is_whitespace() {
                out.push(c[i].to_string());
            }
            i += 1;
        }
    }
    out
}

/// Whether the attribute tokens (between `#[` and `]`) make an item exist only under test:
/// `cfg(test)`, `cfg(all(test, …))`.
fn test_only(attr: &[String]) -> bool {
    attr.first().is_some_and(|t| t == "cfg")
        && attr.iter().any(|t| t == "test")
        && !attr.iter().any(|t| t == "not" || t == "any")
}

/// The index just past the attribute that starts at `toks[i]` (`#`), and its inner tokens.
fn attribute(toks: &[String], i: usize) -> Option<(usize, &[String])> {
    if toks.get(i)? != "#" || toks.get(i + 1)? != "[" {
        return None;
    }
    let mut depth = 0;
    for k in i + 1..toks.len() {
        match toks[k].as_str() {
            "[" | "(" | "{" => depth += 1,
            "]" | ")" | "}" => {
                depth -= 1;
                if depth == 0 {
                    return Some((k + 1, &toks[i + 2..k]));
                }
            }
            _ => {}
        }
    }
    None
}

const ITEM_WORDS: &[&str] = &[
    "pub",
    "mod",
    "fn",
    "impl",
    "use",
    "struct",
    "enum",
    "const",
    "static",
    "type",
    "trait",
    "unsafe",
    "extern",
    "async",
    "macro_rules",
];

/// `toks` without the items (and fields, statements) under a test-only `#[cfg(…)]`, and the
/// names of the file's top-level modules declared test-only (`#[cfg(test)] mod tests;`).
fn without_tests(toks: Vec<String>) -> (Vec<String>, Vec<String>) {
    let mut out = Vec::new();
    let mut test_mods = Vec::new();
    let mut depth = 0i32;
    let mut i = 0;
    while i < toks.len() {
        let Some((after, attr)) = attribute(&toks, i) else {
            match toks[i].as_str() {
                "{" | "(" | "[" => depth += 1,
                "}" | ")" | "]" => depth -= 1,
                _ => {}
            }
            out.push(toks[i].clone());
            i += 1;
            continue;
        };
        if !test_only(attr) {
            out.extend(toks[i..after].iter().cloned());
            i = after;
            continue;
        }
        // Skip the attributes that follow, then the item they apply to.
        let mut k = after;
        while let Some((next, _)) = attribute(&toks, k) {
            k = next;
        }
        let item = toks
            .get(k)
            .is_some_and(|t| ITEM_WORDS.contains(&t.as_str()));
        let start = k;
        let mut d = 0i32;
        while k < toks.len() {
            let t = toks[k].as_str();
            match t {
                "{" | "(" | "[" => d += 1,
                "}" | ")" | "]" => {
                    if d == 0 {
                        break;
                    }
                    d -= 1;
                    if d == 0 && t == "}" && item {
                        k += 1;
                        break;
                    }
                }
                ";" if d == 0 => {
                    k += 1;
                    break;
                }
                "," if d == 0 && !item => {
                    break;
                }
                _ => {}
            }
            k += 1;
        }
        let body = &toks[start..k];
        if depth == 0 {
            if let Some(m) = body.iter().position(|t| t == "mod") {
                if body.get(m + 2).is_some_and(|t| t == ";") {
                    test_mods.push(body[m + 1].clone());
                }
            }
        }
        i = k;
    }
    (out, test_mods)
}

/// A path as written: its segments (`crate`, `super`, names) and the module it is written in.
#[derive(Clone, Debug)]
struct Written {
    ctx: Module,
    segs: Vec<String>,
}

/// The paths of the `use` tree in `toks` (from after `use` up to `;`), with the name each binds
/// (`None` for `*` and `as _`).
fn use_tree(toks: &[String]) -> Vec<(Vec<String>, Option<String>)> {
    let mut out = Vec::new();
    tree(toks, 0, Vec::new(), &mut out);
    out
}

fn tree(
    toks: &[String],
    mut i: usize,
    mut path: Vec<String>,
    out: &mut Vec<(Vec<String>, Option<String>)>,
) -> usize {
    while let Some(t) = toks.get(i) {
        match t.as_str() {
            "::" => i += 1,
            "{" => {
                i += 1;
                while i < toks.len() && toks[i] != "}" {
                    i = tree(toks, i, path.clone(), out);
                    if toks.get(i).is_some_and(|t| t == ",") {
                        i += 1;
                    }
                }
                return i + 1;
            }
            "*" => {
                out.push((path, None));
                return i + 1;
            }
            t if t.chars().all(|c| c.is_alphanumeric() || c == '_') => {
                path.push(t.to_string());
                i += 1;
                if toks.get(i).is_none_or(|t| t != "::") {
                    break;
                }
            }
            _ => break,
        }
    }
    if path.last().is_some_and(|s| s == "self") {
        path.pop();
    }
    let mut name = path.last().cloned();
    if toks.get(i).is_some_and(|t| t == "as") {
        name = toks.get(i + 1).filter(|n| *n != "_").cloned();
        i += 2;
    }
    out.push((path, name));
    i
}

/// What the check learns from one file.
struct Parsed {
    /// The paths the file names, in `use` declarations and in code.
    refs: Vec<Written>,
    /// For each module the file holds (itself and its inline `mod x { … }`), the names its `use`
    /// declarations bind and the paths they stand for.
    uses: Vec<(Module, String, Written)>,
    /// The inline modules.
    inline: Vec<Module>,
    /// Top-level modules declared test-only.
    test_mods: Vec<String>,
}

fn ident(t: &str) -> bool {
    t.chars()
        .next()
        .is_some_and(|c| c.is_alphabetic() || c == '_')
}

/// Parses the file of module `file` with source `text`. `first` tells whether a name may start
/// a path in code (`crate`, `super`, a child module, a name a `use` bound): it is called with
/// the module the path is written in.
fn parse(file: &Module, text: &str) -> Parsed {
    let (toks, test_mods) = without_tests(tokens(&strip(text)));
    let mut p = Parsed {
        refs: Vec::new(),
        uses: Vec::new(),
        inline: Vec::new(),
        test_mods,
    };
    // The inline modules open at this point, with the brace depth inside each.
    let mut open: Vec<(Module, i32)> = Vec::new();
    let mut depth = 0;
    let mut i = 0;
    let ctx = |open: &Vec<(Module, i32)>| open.last().map_or(file.clone(), |(m, _)| m.clone());
    while i < toks.len() {
        let t = toks[i].as_str();
        match t {
            "{" => depth += 1,
            "}" => {
                depth -= 1;
                if open.last().is_some_and(|(_, d)| *d == depth + 1) {
                    open.pop();
                }
            }
            "mod" if toks.get(i + 2).is_some_and(|t| t == "{") => {
                let m = ctx(&open).child(&toks[i + 1]);
                p.inline.push(m.clone());
                open.push((m, depth + 1));
                depth += 1;
                i += 3;
                continue;
            }
            "use" => {
                let end = (i..toks.len())
                    .find(|&k| toks[k] == ";")
                    .unwrap_or(toks.len());
                let here = ctx(&open);
                for (segs, name) in use_tree(&toks[i + 1..end]) {
                    let w = Written {
                        ctx: here.clone(),
                        segs,
                    };
                    if let Some(n) = name {
                        p.uses.push((here.clone(), n, w.clone()));
                    }
                    p.refs.push(w);
                }
                i = end + 1;
                continue;
            }
            _ if ident(t)
                && toks.get(i + 1).is_some_and(|t| t == "::")
                && (i == 0 || toks[i - 1] != "::") =>
            {
                let mut segs = vec![t.to_string()];
                let mut k = i + 1;
                while toks.get(k).is_some_and(|t| t == "::")
                    && toks.get(k + 1).is_some_and(|t| ident(t))
                {
                    segs.push(toks[k + 1].clone());
                    k += 2;
                }
                p.refs.push(Written {
                    ctx: ctx(&open),
                    segs,
                });
                i = k;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    p
}

/// Every file's parse, and what resolving paths needs.
struct Tree {
    /// Files, by name relative to `src/`.
    files: Vec<(String, Module, Parsed)>,
    /// Every module, with the index of the file that holds it.
    modules: BTreeMap<Module, usize>,
    /// The names `use` binds in each module.
    uses: BTreeMap<Module, BTreeMap<String, Written>>,
}

impl Tree {
    fn new(sources: &[(String, String)]) -> Tree {
        let mut files: Vec<(String, Module, Parsed)> = sources
            .iter()
            .map(|(name, text)| {
                let m = module_of(name);
                let p = parse(&m, text);
                (name.clone(), m, p)
            })
            .collect();
        let test_only: Vec<Module> = files
            .iter()
            .flat_map(|(_, m, p)| p.test_mods.iter().map(|t| m.child(t)))
            .collect();
        files.retain(|(_, m, _)| !test_only.iter().any(|t| t == m || t.contains(m)));
        files.sort_by(|a, b| a.0.cmp(&b.0));
        let mut modules = BTreeMap::new();
        let mut uses: BTreeMap<Module, BTreeMap<String, Written>> = BTreeMap::new();
        for (i, (_, m, p)) in files.iter().enumerate() {
            modules.insert(m.clone(), i);
            for inline in &p.inline {
                modules.insert(inline.clone(), i);
            }
            for (ctx, name, w) in &p.uses {
                uses.entry(ctx.clone())
                    .or_default()
                    .insert(name.clone(), w.clone());
            }
        }
        Tree {
            files,
            modules,
            uses,
        }
    }

    /// The absolute path (crate and segments from its root) `w` stands for; `None` for a path
    /// into another crate or a local name.
    fn absolute(&self, w: &Written, hops: usize) -> Option<Module> {
        let first = w.segs.first()?.as_str();
        let rest = |n: usize| w.segs[n..].iter().map(String::as_str);
        let mut base = match first {
            "crate" => Module::new(&[]),
            "self" | "super" => {
                let mut m = w.ctx.clone();
                let supers = w.segs.iter().take_while(|s| *s == "super").count();
                for _ in 0..supers {
                    m.path.pop()?;
                }
                let skip = if first == "self" { 1 } else { supers };
                return Some(rest(skip).fold(m, |m, s| m.child(s)));
            }
            _ if self.modules.contains_key(&w.ctx.child(first)) => w.ctx.child(first),
            _ => {
                let bound = self.uses.get(&w.ctx)?.get(first)?;
                if hops == 0 || std::ptr::eq(bound, w) {
                    return None;
                }
                self.absolute(bound, hops - 1)?
            }
        };
        for s in rest(1) {
            base = base.child(s);
        }
        Some(base)
    }

    /// The module an absolute path lands in: its longest prefix that is a module, and, when the
    /// next name is one that module's `use` binds, where that name comes from.
    fn land(&self, abs: &Module, hops: usize) -> Module {
        let mut m = abs.clone();
        while !self.modules.contains_key(&m) && !m.path.is_empty() {
            m.path.pop();
        }
        if let Some(next) = abs.path.get(m.path.len()) {
            let bound = self.uses.get(&m).and_then(|u| u.get(next));
            if let Some(target) = bound.filter(|_| hops > 0).and_then(|w| self.absolute(w, 8)) {
                let mut onward = target;
                onward
                    .path
                    .extend(abs.path[m.path.len() + 1..].iter().cloned());
                return self.land(&onward, hops - 1);
            }
        }
        m
    }

    /// Every import between files: the importing file's index and the module it imports.
    fn edges(&self) -> BTreeSet<(usize, Module)> {
        let mut out = BTreeSet::new();
        for (i, (_, _, p)) in self.files.iter().enumerate() {
            for w in &p.refs {
                let Some(abs) = self.absolute(w, 8) else {
                    continue;
                };
                let to = self.land(&abs, 8);
                if self.modules.get(&to).is_some_and(|&f| f != i) {
                    out.insert((i, to));
                }
            }
        }
        out
    }
}

/// The strongly connected components of the graph `next` (Tarjan's algorithm).
fn components(next: &[BTreeSet<usize>]) -> Vec<Vec<usize>> {
    struct State<'a> {
        next: &'a [BTreeSet<usize>],
        index: Vec<Option<usize>>,
        low: Vec<usize>,
        on_stack: Vec<bool>,
        stack: Vec<usize>,
        count: usize,
        out: Vec<Vec<usize>>,
    }
    fn visit(s: &mut State, v: usize) {
        s.index[v] = Some(s.count);
        s.low[v] = s.count;
        s.count += 1;
        s.stack.push(v);
        s.on_stack[v] = true;
        for &w in s.next[v].iter() {
            match s.index[w] {
                None => {
                    visit(s, w);
                    s.low[v] = s.low[v].min(s.low[w]);
                }
                Some(iw) if s.on_stack[w] => s.low[v] = s.low[v].min(iw),
                Some(_) => {}
            }
        }
        if Some(s.low[v]) == s.index[v] {
            let mut c = Vec::new();
            loop {
                let w = s.stack.pop().unwrap();
                s.on_stack[w] = false;
                c.push(w);
                if w == v {
                    break;
                }
            }
            c.sort();
            s.out.push(c);
        }
    }
    let n = next.len();
    let mut s = State {
        next,
        index: vec![None; n],
        low: vec![0; n],
        on_stack: vec![false; n],
        stack: Vec::new(),
        count: 0,
        out: Vec::new(),
    };
    for v in 0..n {
        if s.index[v].is_none() {
            visit(&mut s, v);
        }
    }
    s.out.sort();
    s.out
}

/// The cycles between files, each as the sorted list of its files. A module and its own
/// descendants may refer to each other (a `mod.rs` re-exports its children, which use its
/// items): a cycle counts when it remains without the imports between a module and one inside
/// it, or when it leaves the module that holds the rest of it.
fn cycles(tree: &Tree, edges: &BTreeSet<(usize, Module)>) -> Vec<Vec<usize>> {
    let n = tree.files.len();
    let mut all = vec![BTreeSet::new(); n];
    let mut apart = vec![BTreeSet::new(); n];
    for (from, to) in edges {
        let to_file = tree.modules[to];
        all[*from].insert(to_file);
        let (a, b) = (&tree.files[*from].1, &tree.files[to_file].1);
        if !a.contains(b) && !b.contains(a) {
            apart[*from].insert(to_file);
        }
    }
    let inner: Vec<Vec<usize>> = components(&apart)
        .into_iter()
        .filter(|c| c.len() > 1)
        .collect();
    let mut out = inner.clone();
    for c in components(&all).into_iter().filter(|c| c.len() > 1) {
        let holds_all = c.iter().any(|&p| {
            c.iter()
                .all(|&f| f == p || tree.files[p].1.contains(&tree.files[f].1))
        });
        if !holds_all && !inner.iter().any(|i| i.iter().all(|f| c.contains(f))) {
            out.push(c);
        }
    }
    out.sort();
    out
}

/// The violations in the files `sources` of one crate (names relative to its `src/`, and
/// texts), under `rules`: one line per import that breaks a rule (`file → module (rule)`),
/// then one per cycle.
fn violations(sources: &[(String, String)], rules: &[Broken]) -> Vec<String> {
    let tree = Tree::new(sources);
    let edges = tree.edges();
    let mut out = Vec::new();
    for (from, to) in &edges {
        let (name, module, _) = &tree.files[*from];
        for rule in rules {
            if let Some(why) = rule(module, to) {
                out.push(format!("{name} → {to} ({why})"));
            }
        }
    }
    for c in cycles(&tree, &edges) {
        let names: Vec<&str> = c.iter().map(|&f| tree.files[f].0.as_str()).collect();
        let mut links = Vec::new();
        for &f in &c {
            let inside: BTreeSet<&str> = edges
                .iter()
                .filter(|(from, to)| *from == f && c.contains(&tree.modules[to]))
                .map(|(_, to)| tree.files[tree.modules[to]].0.as_str())
                .collect();
            let inside: Vec<&str> = inside.into_iter().collect();
            links.push(format!("    {} → {}", tree.files[f].0, inside.join(", ")));
        }
        out.push(format!(
            "cycle of {} files: {}\n{}",
            c.len(),
            names.join(", "),
            links.join("\n")
        ));
    }
    out
}

/// Every `.rs` file under `dir`, by name relative to it, with its text.
fn sources(dir: &Path) -> Vec<(String, String)> {
    fn walk(dir: &Path, src: &Path, out: &mut Vec<(String, String)>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, src, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let name = path.strip_prefix(src).unwrap().to_string_lossy();
                let text = std::fs::read_to_string(&path).unwrap();
                out.push((name.replace('\\', "/"), text));
            }
        }
    }
    let mut out = Vec::new();
    walk(dir, dir, &mut out);
    out.sort();
    out
}

/// Every crate of the workspace: its name, its folder and its manifest's text (the root's
/// first).
fn crates() -> Vec<(String, std::path::PathBuf, String)> {
    let root = Path::new(ROOT);
    let mut dirs = vec![root.to_path_buf()];
    let mut members: Vec<_> = std::fs::read_dir(root.join("crates"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.join("Cargo.toml").is_file())
        .collect();
    members.sort();
    dirs.extend(members);
    dirs.into_iter()
        .map(|dir| {
            let text = std::fs::read_to_string(dir.join("Cargo.toml")).unwrap();
            let name = text
                .lines()
                .find_map(|l| l.strip_prefix("name = \""))
                .and_then(|l| l.strip_suffix('"'))
                .unwrap()
                .to_string();
            (name, dir, text)
        })
        .collect()
}

#[test]
fn the_crates_keep_their_layers() {
    let crates = crates();
    assert!(crates.len() >= 10, "only {} crates", crates.len());
    let manifests: Vec<(String, String)> = crates
        .iter()
        .map(|(n, _, t)| (n.clone(), t.clone()))
        .collect();
    let mut found = crate_violations(&manifests);
    let mut files = 0;
    for (name, dir, _) in &crates {
        let sources = sources(&dir.join("src"));
        files += sources.len();
        let rules = if name == "saikoro-match" {
            MATCH_RULES
        } else {
            &[]
        };
        found.extend(
            violations(&sources, rules)
                .into_iter()
                .map(|v| format!("{name}: {v}")),
        );
        if name == "saikoro-core" {
            for (file, text) in &sources {
                for io in io_in(text) {
                    found.push(format!(
                        "saikoro-core: {file} names {io} (the core does no I/O)"
                    ));
                }
            }
        }
    }
    assert!(files > 100, "only {files} files under the crates' src/");
    assert!(
        found.is_empty(),
        "{} violations of the layers (docs/architecture.md):\n{}",
        found.len(),
        found.join("\n")
    );
}

/// The import graph by file and by folder, crate by crate: `cargo test --test it
/// layers::graph -- --ignored --nocapture`.
#[test]
#[ignore]
fn graph() {
    for (name, dir, text) in crates() {
        let (normal, _) = manifest_deps(&text);
        let normal: Vec<String> = normal.into_iter().collect();
        println!("== {name} → {}", normal.join(", "));
        let tree = Tree::new(&sources(&dir.join("src")));
        let edges = tree.edges();
        let folder = |f: usize| {
            let name = &tree.files[f].0;
            let dir = name.rsplit_once('/').map(|(d, _)| d);
            dir.unwrap_or(name.trim_end_matches(".rs")).to_string()
        };
        let mut by_folder: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for (from, to) in &edges {
            let (a, b) = (folder(*from), folder(tree.modules[to]));
            if a != b {
                by_folder.entry(a).or_default().insert(b);
            }
        }
        for (a, bs) in by_folder {
            let bs: Vec<String> = bs.into_iter().collect();
            println!("{a} → {}", bs.join(", "));
        }
    }
}

fn fake(files: &[(&str, &str)]) -> Vec<(String, String)> {
    files
        .iter()
        .map(|(n, t)| (n.to_string(), t.to_string()))
        .collect()
}

#[test]
fn the_check_finds_a_dependency_against_the_layers() {
    let manifest = |deps: &str, dev: &str| {
        format!(
            "[package]\nname = \"x\"\n\n[dependencies]\n{deps}\n\n\
             [target.'cfg(unix)'.dependencies]\nnix.workspace = true\n\n[dev-dependencies]\n{dev}\n"
        )
    };
    let m = |name: &str, deps: &str, dev: &str| (name.to_string(), manifest(deps, dev));
    let found = crate_violations(&[
        m(
            "saikoro-core",
            "rand = { workspace = true, optional = true }",
            "",
        ),
        m("saikoro-usi", "saikoro-core.workspace = true", ""),
        // A tool naming another: the one normal dependency that breaks a layer.
        m(
            "saikoro-match",
            "saikoro-core = { workspace = true, features = [\"rand\"] }\n\
             saikoro-check.workspace = true",
            "",
        ),
        // The core testing itself through a crate above it: two copies of the core.
        m(
            "saikoro-record",
            "saikoro-core.workspace = true",
            "saikoro-usi = \"0.1\"",
        ),
        m(
            "saikoro",
            "saikoro-match.workspace = true",
            "saikoro-core.workspace = true",
        ),
        m("saikoro-extra", "", ""),
    ]);
    assert_eq!(
        found,
        [
            "saikoro-match depends on saikoro-check (the engine and the tools may not depend \
             on each other)",
            "saikoro-record has as a dev-dependency saikoro-usi (the protocol, the records and \
             the output files may not depend on each other: the crate would be linked twice)",
            "saikoro-extra: a crate of no layer (docs/architecture.md)",
        ]
    );
}

#[test]
fn the_check_finds_a_cycle_and_io_in_the_core() {
    let files = fake(&[
        (
            "lib.rs",
            "pub mod board;\npub mod position;\npub use position::Position;\n",
        ),
        (
            "board.rs",
            "//! Not `std::fs` in a comment.\n\
             use crate::position::Position;\n\
             /* nor std::io /* nested */ here */\n\
             const S: &str = \"println!\";\n\
             const C: char = '\"';\n\
             fn f<'a>(x: &'a str) -> &'a str { x }\n\
             #[cfg(test)]\nmod tests {\n    fn p() { println!(\"x\"); }\n}\n",
        ),
        (
            "position.rs",
            "use crate::{board::{self, f as g}};\npub struct Position;\n\
             fn now() { let _ = std::time::Instant::now(); }\n",
        ),
    ]);
    assert_eq!(
        violations(&files, &[]),
        ["cycle of 2 files: board.rs, position.rs\n    \
          board.rs → position.rs\n    \
          position.rs → board.rs"]
    );
    assert!(io_in(&files[1].1).is_empty(), "{:?}", io_in(&files[1].1));
    assert_eq!(io_in(&files[2].1), ["std::time"]);
}

#[test]
fn the_check_names_each_rule_of_the_match() {
    let files = fake(&[
        (
            "lib.rs",
            "pub mod game;\npub mod output;\npub mod run;\npub mod stats;\n\
             pub use run::scheduler::Match;\n",
        ),
        ("game/mod.rs", "use super::output::Sink;\n"),
        (
            "output/mod.rs",
            "pub struct Sink;\npub fn f(_: super::Match) {}\n",
        ),
        ("run/mod.rs", "pub mod scheduler;\n"),
        ("run/scheduler.rs", "pub struct Match;\n"),
        ("stats/mod.rs", "use crate::game;\n"),
    ]);
    assert_eq!(
        violations(&files, MATCH_RULES),
        [
            "game/mod.rs → output (game imports neither run nor output)",
            "output/mod.rs → run::scheduler \
             (only the crate's root (lib.rs) imports run::scheduler, the driver of the match)",
            "output/mod.rs → run::scheduler (output does not import run)",
            "stats/mod.rs → game (stats imports no other part of the match)",
        ]
    );
}

#[test]
fn a_cycle_through_a_parent_that_leaves_it_counts() {
    // game re-exports its child, which imports output, which imports game: the parent-child
    // imports are allowed, the loop through output/ is not.
    let files = fake(&[
        ("lib.rs", "pub mod game;\npub mod output;\n"),
        ("game/mod.rs", "pub mod board;\npub use board::Board;\n"),
        (
            "game/board.rs",
            "pub struct Board;\nuse crate::output::f;\n",
        ),
        (
            "output/mod.rs",
            "pub fn f() {}\nfn g() { crate::game::helper(); }\n",
        ),
    ]);
    assert_eq!(
        violations(&files, &[]),
        [
            "cycle of 3 files: game/board.rs, game/mod.rs, output/mod.rs\n    \
          game/board.rs → output/mod.rs\n    \
          game/mod.rs → game/board.rs\n    \
          output/mod.rs → game/mod.rs"
        ]
    );
}

#[test]
fn use_trees_expand_to_paths_and_names() {
    let toks = tokens("crate::{a::b, c::{self, d as e}, f::*, g as _};");
    let got = use_tree(&toks[..toks.len() - 1]);
    let s = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    assert_eq!(
        got,
        [
            (s(&["crate", "a", "b"]), Some("b".to_string())),
            (s(&["crate", "c"]), Some("c".to_string())),
            (s(&["crate", "c", "d"]), Some("e".to_string())),
            (s(&["crate", "f"]), None),
            (s(&["crate", "g"]), None),
        ]
    );
}

#[test]
fn strip_leaves_code_only() {
    let code = strip("a /* b /* c */ d */ e // f\n\"g\\\"h\" r#\"i\"# 'j' '\\n' &'k l");
    assert_eq!(tokens(&code), ["a", "e", "&", "'", "k", "l"]);
}

#[test]
fn files_map_to_modules() {
    assert_eq!(module_of("board.rs"), Module::new(&["board"]));
    assert_eq!(module_of("movegen/mod.rs"), Module::new(&["movegen"]));
    assert_eq!(module_of("lib.rs"), Module::new(&[]));
    assert_eq!(module_of("main.rs"), Module::new(&[]));
    assert_eq!(
        module_of("cli/dialect/mod.rs"),
        Module::new(&["cli", "dialect"])
    );
}
