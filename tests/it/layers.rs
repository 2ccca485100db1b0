//! The layers of `src/` (docs/architecture.md) hold: every `.rs` file under `src/` is read, its
//! imports collected, and the test fails with a list of each import that goes the wrong way and
//! each cycle between files.
//!
//! What counts as an import: the paths of `use` declarations (grouped trees, `self`, `as`, `*`)
//! and the paths in code that start with `crate::`, `super::`, `self::`, `saikoro::` (in the
//! binary), a child module's name or a name a `use` bound to a module. Comments, string and
//! character literals, and items under `#[cfg(test)]` (tests may import anything) are left out.
//! A path is resolved to the longest prefix that is a module; a name a module brings in with
//! `use` (`crate::Position`, re-exported by `lib.rs`) is followed to where it comes from.
//! Only std: no parser crate.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::path::Path;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// The layers, bottom to top, by the first segment of a module's path: a module may import its
/// own layer and those below. `main` is the binary's root (`src/main.rs`).
const LAYERS: &[(&str, &[&str])] = &[
    ("the rules core", &["shogi"]),
    ("output files", &["outfile"]),
    ("records", &["record"]),
    ("USI", &["usi"]),
    ("the driver", &["driver"]),
    (
        "tools",
        &["engine", "csa", "tournament", "check", "selfplay"],
    ),
    ("the binary", &["cli", "main"]),
];

/// The layer that holds the tools, which never import each other.
const TOOLS: &str = "tools";

/// A rule on one import `from → to` (the importing file's module, the imported module): the
/// reason it is broken, or `None`.
type Broken = fn(&Module, &Module) -> Option<String>;

/// The rules every import obeys.
const RULES: &[Broken] = &[
    layer_order,
    tool_to_tool,
    library_to_binary,
    scheduler_only_from_tournament,
    stats_alone,
    game_below_run_and_output,
    output_below_run,
];

fn layer_order(from: &Module, to: &Module) -> Option<String> {
    let (f, t) = (layer(from)?, layer(to)?);
    (t > f).then(|| {
        format!(
            "{} may not import {}, a layer above it",
            LAYERS[f].0, LAYERS[t].0
        )
    })
}

fn tool_to_tool(from: &Module, to: &Module) -> Option<String> {
    let tool = |m: &Module| layer(m).is_some_and(|l| LAYERS[l].0 == TOOLS);
    (tool(from) && tool(to) && from.top() != to.top())
        .then(|| "a tool never imports another tool".to_string())
}

fn library_to_binary(from: &Module, to: &Module) -> Option<String> {
    (!from.bin && to.bin).then(|| "the library never imports the binary".to_string())
}

/// Inside `tournament/`; the binary above it may name the scheduler. A name re-exported by
/// `tournament/mod.rs` counts where it comes from: a part of tournament that takes the
/// scheduler's `Match` through `crate::tournament::Match` still imports the scheduler.
fn scheduler_only_from_tournament(from: &Module, to: &Module) -> Option<String> {
    let scheduler = "tournament::run::scheduler";
    let inside = from.under("tournament") && !from.is("tournament") && !from.under(scheduler);
    (inside && to.under(scheduler)).then(|| {
        "inside tournament, only tournament (its mod.rs) imports tournament::run::scheduler, \
         the driver"
            .to_string()
    })
}

fn stats_alone(from: &Module, to: &Module) -> Option<String> {
    (from.under("tournament::stats") && to.under("tournament") && !to.under("tournament::stats"))
        .then(|| "tournament::stats imports no other part of tournament".to_string())
}

fn game_below_run_and_output(from: &Module, to: &Module) -> Option<String> {
    (from.under("tournament::game")
        && (to.under("tournament::run") || to.under("tournament::output")))
    .then(|| "tournament::game imports neither tournament::run nor tournament::output".to_string())
}

fn output_below_run(from: &Module, to: &Module) -> Option<String> {
    (from.under("tournament::output") && to.under("tournament::run"))
        .then(|| "tournament::output does not import tournament::run".to_string())
}

/// The index in [`LAYERS`] of `m`'s layer; `None` for the library's root (`lib.rs`), which
/// declares every module and may name any.
fn layer(m: &Module) -> Option<usize> {
    let top = m.top()?;
    LAYERS.iter().position(|(_, names)| names.contains(&top))
}

/// A module: of the library or of the binary, and its path from that crate's root.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
struct Module {
    bin: bool,
    path: Vec<String>,
}

impl Module {
    fn new(bin: bool, path: &[&str]) -> Module {
        Module {
            bin,
            path: path.iter().map(|s| s.to_string()).collect(),
        }
    }

    /// The first segment of the path (`main` for the binary's root); `None` for `lib.rs`.
    fn top(&self) -> Option<&str> {
        match (self.path.first(), self.bin) {
            (Some(s), _) => Some(s),
            (None, true) => Some("main"),
            (None, false) => None,
        }
    }

    /// Whether this is the library module `path` (`a::b`) or one inside it.
    fn under(&self, path: &str) -> bool {
        let segs: Vec<&str> = path.split("::").collect();
        !self.bin
            && self.path.len() >= segs.len()
            && self.path.iter().zip(&segs).all(|(a, b)| a == b)
    }

    /// Whether this is the library module `path` itself.
    fn is(&self, path: &str) -> bool {
        !self.bin && self.path.join("::") == path
    }

    /// Whether `other` is strictly inside this module.
    fn contains(&self, other: &Module) -> bool {
        self.bin == other.bin
            && other.path.len() > self.path.len()
            && other.path.starts_with(&self.path)
    }

    fn child(&self, name: &str) -> Module {
        let mut m = self.clone();
        m.path.push(name.to_string());
        m
    }
}

impl fmt::Display for Module {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.path.is_empty(), self.bin) {
            (true, false) => f.write_str("crate"),
            (true, true) => f.write_str("main"),
            _ => f.write_str(&self.path.join("::")),
        }
    }
}

/// The module of the file `name` (relative to `src/`, with `/`): `a/b.rs` and `a/b/mod.rs` are
/// `a::b`; `lib.rs` is the library's root, `main.rs` the binary's, and `cli/**` is the binary.
fn module_of(name: &str) -> Module {
    let mut segs: Vec<&str> = name.trim_end_matches(".rs").split('/').collect();
    if segs.last() == Some(&"mod") || segs == ["lib"] || segs == ["main"] {
        segs.pop();
    }
    let bin = name == "main.rs" || segs.first() == Some(&"cli");
    Module::new(bin, &segs)
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
            "crate" => Module::new(w.ctx.bin, &[]),
            "saikoro" if w.ctx.bin => Module::new(false, &[]),
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

/// The violations in the files `sources` (names relative to `src/`, and texts): one line per
/// import that breaks a rule (`file → module (rule)`), then one per cycle.
fn violations(sources: &[(String, String)]) -> Vec<String> {
    let tree = Tree::new(sources);
    let edges = tree.edges();
    let mut out = Vec::new();
    for (from, to) in &edges {
        let (name, module, _) = &tree.files[*from];
        for rule in RULES {
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

/// Every `.rs` file under `src/`, by name relative to it, with its text.
fn sources() -> Vec<(String, String)> {
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
    let src = Path::new(ROOT).join("src");
    let mut out = Vec::new();
    walk(&src, &src, &mut out);
    out.sort();
    out
}

#[test]
fn src_keeps_its_layers() {
    let sources = sources();
    assert!(
        sources.len() > 100,
        "only {} files under src/",
        sources.len()
    );
    let found = violations(&sources);
    assert!(
        found.is_empty(),
        "{} violations of the layers (docs/architecture.md):\n{}",
        found.len(),
        found.join("\n")
    );
}

/// The import graph by file and by folder: `cargo test --test layers graph -- --ignored
/// --nocapture`.
#[test]
#[ignore]
fn graph() {
    let tree = Tree::new(&sources());
    let edges = tree.edges();
    let folder = |f: usize| {
        let name = &tree.files[f].0;
        // A top-level file stands for itself (outfile, selfplay, lib, main).
        let dir = name.rsplit_once('/').map(|(d, _)| d);
        dir.unwrap_or(name.trim_end_matches(".rs")).to_string()
    };
    let mut by_folder: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (from, to) in &edges {
        println!("{} → {to}", tree.files[*from].0);
        let (a, b) = (folder(*from), folder(tree.modules[to]));
        if a != b {
            by_folder.entry(a).or_default().insert(b);
        }
    }
    println!();
    for (a, bs) in by_folder {
        let bs: Vec<String> = bs.into_iter().collect();
        println!("{a} → {}", bs.join(", "));
    }
}

fn fake(files: &[(&str, &str)]) -> Vec<(String, String)> {
    files
        .iter()
        .map(|(n, t)| (n.to_string(), t.to_string()))
        .collect()
}

#[test]
fn the_check_finds_a_core_file_importing_a_tool_and_a_cycle() {
    let files = fake(&[
        (
            "lib.rs",
            "pub mod shogi;\npub mod driver;\npub mod tournament;\n\
             pub use shogi::position::{Position, Setup as Start};\n",
        ),
        ("shogi/mod.rs", "pub mod board;\npub mod position;\n"),
        // The core naming a tool: the one import that breaks a layer.
        (
            "shogi/board.rs",
            "//! Not `crate::tournament` in a comment.\n\
             use crate::tournament::Match;\n\
             /* nor crate::tournament::Match /* nested */ here */\n\
             const S: &str = \"crate::tournament::Match\";\n\
             const C: char = '\"';\n\
             fn f<'a>(x: &'a str) -> &'a str { x }\n\
             #[cfg(test)]\nmod tests {\n    use crate::tournament::Match;\n}\n",
        ),
        (
            "shogi/position.rs",
            "use crate::{Start, shogi::{self, board::Board as B}};\n\
             pub struct Position;\npub struct Setup;\n",
        ),
        // The two files that import each other.
        (
            "driver/mod.rs",
            "pub mod guard;\npub mod process;\npub use process::Child;\n",
        ),
        (
            "driver/guard.rs",
            "use super::process::Child;\npub fn kill() {}\n",
        ),
        (
            "driver/process.rs",
            "pub struct Child;\n\
             #[cfg(unix)]\nmod unix {\n    fn f() { super::super::guard::kill(); }\n}\n\
             fn g() -> crate::Position { todo!() }\n",
        ),
        // A module and its children may refer to each other.
        (
            "tournament/mod.rs",
            "pub mod run;\npub struct Match;\npub use run::scheduler::Report;\n",
        ),
        ("tournament/run/mod.rs", "pub mod scheduler;\n"),
        (
            "tournament/run/scheduler.rs",
            "use crate::tournament::Match;\npub struct Report;\n",
        ),
        ("main.rs", "mod cli;\nfn main() { cli::run() }\n"),
        (
            "cli/mod.rs",
            "use saikoro::{driver::Child, tournament::Match};\n\
             pub fn run() { saikoro::shogi::board::f(); }\n",
        ),
    ]);
    assert_eq!(
        violations(&files),
        [
            "shogi/board.rs → tournament (the rules core may not import tools, a layer above it)",
            "cycle of 2 files: driver/guard.rs, driver/process.rs\n    \
             driver/guard.rs → driver/process.rs\n    \
             driver/process.rs → driver/guard.rs",
        ]
    );
}

#[test]
fn the_check_names_each_rule_of_tournament() {
    let files = fake(&[
        (
            "lib.rs",
            "pub mod tournament;\npub mod csa;\npub mod driver;\n",
        ),
        ("driver/mod.rs", "use crate::csa::Client;\n"),
        ("csa/mod.rs", "pub struct Client;\n"),
        (
            "tournament/mod.rs",
            "pub mod game;\npub mod output;\npub mod run;\npub mod stats;\n\
             pub use run::scheduler::Match;\nfn f() -> csa::Client { todo!() }\n\
             use crate::csa;\n",
        ),
        ("tournament/game/mod.rs", "use super::output::Sink;\n"),
        (
            "tournament/output/mod.rs",
            "pub struct Sink;\npub fn f(_: super::Match) {}\n",
        ),
        ("tournament/run/mod.rs", "pub mod scheduler;\n"),
        ("tournament/run/scheduler.rs", "pub struct Match;\n"),
        ("tournament/stats/mod.rs", "use crate::tournament::game;\n"),
        // The binary may name the scheduler.
        (
            "cli/mod.rs",
            "use saikoro::tournament::run::scheduler::Match;\n",
        ),
    ]);
    assert_eq!(
        violations(&files),
        [
            "driver/mod.rs → csa (the driver may not import tools, a layer above it)",
            "tournament/game/mod.rs → tournament::output \
             (tournament::game imports neither tournament::run nor tournament::output)",
            "tournament/mod.rs → csa (a tool never imports another tool)",
            "tournament/output/mod.rs → tournament::run::scheduler \
             (inside tournament, only tournament (its mod.rs) imports \
             tournament::run::scheduler, the driver)",
            "tournament/output/mod.rs → tournament::run::scheduler \
             (tournament::output does not import tournament::run)",
            "tournament/stats/mod.rs → tournament::game \
             (tournament::stats imports no other part of tournament)",
        ]
    );
}

#[test]
fn a_cycle_through_a_parent_that_leaves_it_counts() {
    // tournament re-exports its child, which imports the driver, which imports tournament: the
    // parent-child imports are allowed, the loop through driver/ is not (and driver/ may not
    // import a tool either).
    let files = fake(&[
        ("lib.rs", "pub mod tournament;\npub mod driver;\n"),
        ("tournament/mod.rs", "pub mod game;\npub use game::Game;\n"),
        (
            "tournament/game.rs",
            "pub struct Game;\nuse crate::driver::f;\n",
        ),
        (
            "driver/mod.rs",
            "pub fn f() {}\nfn g() { crate::tournament::helper(); }\n",
        ),
    ]);
    assert_eq!(
        violations(&files),
        [
            "driver/mod.rs → tournament (the driver may not import tools, a layer above it)",
            "cycle of 3 files: driver/mod.rs, tournament/game.rs, tournament/mod.rs\n    \
             driver/mod.rs → tournament/mod.rs\n    \
             tournament/game.rs → driver/mod.rs\n    \
             tournament/mod.rs → tournament/game.rs",
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
    assert_eq!(
        module_of("shogi/board.rs"),
        Module::new(false, &["shogi", "board"])
    );
    assert_eq!(
        module_of("shogi/movegen/mod.rs"),
        Module::new(false, &["shogi", "movegen"])
    );
    assert_eq!(module_of("lib.rs"), Module::new(false, &[]));
    assert_eq!(module_of("main.rs"), Module::new(true, &[]));
    assert_eq!(
        module_of("cli/dialect/mod.rs"),
        Module::new(true, &["cli", "dialect"])
    );
}
