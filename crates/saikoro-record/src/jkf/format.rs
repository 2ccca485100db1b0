//! The JKF format as serde types, one for each kind of JSON object of the spec
//! (json-kifu-format's README, Version 1.0): the reader and the writer go through the same
//! types, and [`Layout`] is how the writer lays them out.
//!
//! Every member is optional here, as the reader takes it: what is missing or out of range is
//! said by the reader, which knows what a record needs (`moves[3].move.to is missing`); what
//! has the wrong JSON type is said by serde, the path found by `serde_path_to_error`. Members
//! the spec does not name are ignored, as JKF readers do (a JSON object read into fields); a
//! member given twice is refused (serde's `duplicate field`), except in [`Members`].

use serde::de::{self, Deserializer, MapAccess, Visitor};
use serde::ser::{SerializeMap, Serializer};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::io::{self, Write};
use std::marker::PhantomData;
use std::ops::Deref;

/// A JKF text. `M` is a `moves` item: an [`Entry`] when written; while read, the item's text
/// (`&RawValue`), read into an [`Entry`] on its own so that an error in it names its line.
#[derive(Debug, Serialize, Deserialize)]
pub(super) struct Jkf<M> {
    /// `header`: KIF's header lines, `先手`, `棋戦`, …, in order.
    pub header: Option<Members<String>>,
    /// `initial`: absent (or null) for 平手.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub initial: Option<Object<Initial>>,
    /// `moves`: the start's comments, then one item a move, and the end.
    pub moves: Option<Vec<M>>,
}

/// `initial`: a `preset` ([`super::PRESETS`]), or `OTHER` with the position in `data`.
#[derive(Debug, Serialize, Deserialize)]
pub(super) struct Initial {
    /// The preset's name.
    pub preset: Option<String>,
    /// The position, for `OTHER`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub data: Option<Object<InitialData>>,
}

/// `initial.data`: the side to move, the board and the hands.
#[derive(Debug, Serialize, Deserialize)]
pub(super) struct InitialData {
    /// `color`: 0 for 先手 (Black), 1 for 後手.
    pub color: Option<u64>,
    /// `board[x-1][y-1]`: nine files of nine squares.
    pub board: Option<Vec<Vec<Object<Cell>>>>,
    /// `hands`: 先手's, 後手's; each a piece's CSA name and its count.
    pub hands: Option<Vec<Members<u64>>>,
}

/// A square of `initial.data.board`: `{}` when empty.
#[derive(Debug, Serialize, Deserialize)]
pub(super) struct Cell {
    /// The piece's side.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub color: Option<u64>,
    /// The piece's CSA name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
}

/// A `moves` item: the 0th holds the comments before the first move; each later one a
/// `move` with its `time`, or the `special` that ends a line. `F` is a fork (a variation, an
/// array of items): a [`Fork`] when written; while read, its text (`&RawValue`), read on its
/// own so that an error in it names its line and a fork that is not an array is said as such.
#[derive(Debug, Serialize, Deserialize)]
pub(super) struct Entry<F> {
    /// `move`.
    #[serde(rename = "move", skip_serializing_if = "Option::is_none")]
    pub mv: Option<Object<MoveFields>>,
    /// `time`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub time: Option<Object<Time>>,
    /// `special`: a CSA end word (`TORYO`, …).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub special: Option<String>,
    /// `comments`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub comments: Option<Vec<String>>,
    /// `forks`: the variations (変化) played instead of this item, each a list of items.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub forks: Option<Vec<F>>,
}

impl<F> Default for Entry<F> {
    fn default() -> Entry<F> {
        Entry {
            mv: None,
            time: None,
            special: None,
            comments: None,
            forks: None,
        }
    }
}

/// A fork as written: its items.
#[derive(Debug, Serialize)]
#[serde(transparent)]
pub(super) struct Fork(pub Vec<Object<Entry<Fork>>>);

/// `move`: where from (none for a drop), where to, the side and the piece before the move,
/// and what KIF and KI2 write besides.
#[derive(Debug, Default, Serialize, Deserialize)]
pub(super) struct MoveFields {
    /// `from`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub from: Option<Object<Place>>,
    /// `to`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub to: Option<Object<Place>>,
    /// `color`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub color: Option<u64>,
    /// `piece`: its CSA name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub piece: Option<String>,
    /// `same`: 同.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub same: Option<bool>,
    /// `promote`: 成 (`true`) or 不成 (`false`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub promote: Option<bool>,
    /// `capture`: the piece on `to`, as it stood.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub capture: Option<String>,
    /// `relative`: KI2's relative words as letters (`L`, `C`, `R`, `U`, `M`, `D`, `H`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub relative: Option<String>,
}

/// A square: `x` the file, `y` the rank, 1 to 9.
#[derive(Debug, Serialize, Deserialize)]
pub(super) struct Place {
    /// The file.
    pub x: Option<u64>,
    /// The rank.
    pub y: Option<u64>,
}

/// `time`: the move's (`now`) and the side's whole time so far (`total`).
#[derive(Debug, Serialize, Deserialize)]
pub(super) struct Time {
    /// `now`.
    pub now: Option<Object<TimeFormat>>,
    /// `total`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub total: Option<Object<TimeFormat>>,
}

/// JKF's `TimeFormat`: hours, minutes, seconds, each optional.
#[derive(Debug, Serialize, Deserialize)]
pub(super) struct TimeFormat {
    /// `h`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub h: Option<u64>,
    /// `m`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub m: Option<u64>,
    /// `s`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub s: Option<u64>,
}

/// A JSON object holding `T`'s members. serde reads a struct from an array of its members'
/// values too; JKF's objects are objects, so an array where one is due is refused as any
/// other wrong type is.
#[derive(Debug, Default)]
pub(super) struct Object<T>(pub T);

impl<T> Deref for Object<T> {
    type Target = T;

    fn deref(&self) -> &T {
        &self.0
    }
}

impl<T: Serialize> Serialize for Object<T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(s)
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Object<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Only<T>(PhantomData<T>);
        impl<'de, T: Deserialize<'de>> Visitor<'de> for Only<T> {
            type Value = T;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a JSON object")
            }

            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<T, A::Error> {
                T::deserialize(de::value::MapAccessDeserializer::new(map))
            }
        }
        d.deserialize_map(Only(PhantomData)).map(Object)
    }
}

/// An object's members in order, a name given twice kept twice: `header` (KIF's header
/// lines, which may repeat) and a hand (`{"FU":2}`).
#[derive(Debug, Default)]
pub(super) struct Members<V>(pub Vec<(String, V)>);

impl<V: Serialize> Serialize for Members<V> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            map.serialize_entry(k, v)?;
        }
        map.end()
    }
}

impl<'de, V: Deserialize<'de>> Deserialize<'de> for Members<V> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct InOrder<V>(PhantomData<V>);
        impl<'de, V: Deserialize<'de>> Visitor<'de> for InOrder<V> {
            type Value = Members<V>;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a JSON object")
            }

            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Members<V>, A::Error> {
                let mut members = Vec::new();
                while let Some(member) = map.next_entry()? {
                    members.push(member);
                }
                Ok(Members(members))
            }
        }
        d.deserialize_map(InOrder(PhantomData))
    }
}

/// How Saikoro lays a JKF text out: compact (no white space), but the top object's members
/// one a line and the `moves` items one a line.
#[derive(Debug, Default)]
pub(super) struct Layout {
    /// How many objects and arrays are open.
    depth: usize,
}

impl serde_json::ser::Formatter for Layout {
    fn begin_object<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.depth += 1;
        w.write_all(b"{")
    }

    fn end_object<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.depth -= 1;
        w.write_all(b"}")
    }

    fn begin_object_key<W: ?Sized + Write>(&mut self, w: &mut W, first: bool) -> io::Result<()> {
        match (first, self.depth) {
            (true, _) => Ok(()),
            (false, 1) => w.write_all(b",\n"),
            (false, _) => w.write_all(b","),
        }
    }

    fn begin_array<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.depth += 1;
        w.write_all(b"[")
    }

    fn end_array<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.depth -= 1;
        w.write_all(if self.depth == 1 { "\n]" } else { "]" }.as_bytes())
    }

    fn begin_array_value<W: ?Sized + Write>(&mut self, w: &mut W, first: bool) -> io::Result<()> {
        match (first, self.depth) {
            (true, 2) => w.write_all(b"\n"),
            (false, 2) => w.write_all(b",\n"),
            (true, _) => Ok(()),
            (false, _) => w.write_all(b","),
        }
    }
}
