//! The dump's layout: a container (object or array) whose whole text fits in a short line is
//! written on one line (`{"x": 0.0, "y": 10.0, "z": 1.5}`); a longer one is laid out one
//! item per line, indented, as `serde_json`'s pretty printer does. A file of a million keys
//! is then a million short lines, not ten million.
//!
//! Serialisation streams, so whether a container fits is only known once it ends or grows
//! past the line: the open containers that may still fit are buffered (at most a line's
//! worth of text in all), and the outermost of them is written out, laid over lines, as soon
//! as they no longer fit.

use std::io::{self, Write};

use serde_json::ser::{CompactFormatter, Formatter};

/// The longest text of a container written on one line.
const LINE: usize = 100;
const INDENT: &[u8] = b"  ";

/// An open container that may still fit on one line: its text so far without its brackets.
#[derive(Default)]
struct Inline {
    /// The items, `, `-separated (an object's items are `"key": value`).
    text: Vec<u8>,
    /// Where each item starts in `text`.
    starts: Vec<usize>,
}

/// A [`Formatter`] for dumps: short containers on one line, others one item per line.
#[derive(Default)]
pub(crate) struct DumpFormatter {
    /// How many containers are open and already laid over lines (the indent of their items).
    depth: usize,
    /// The open containers that may still fit on a line are `stack[first..open]`, outermost
    /// first; all of them are inside the `depth` laid-out ones. The entries outside that
    /// window are empty and keep their buffers for the containers still to come: a dump
    /// opens millions of small containers, and allocating or moving two vectors for each
    /// was a fifth of its time.
    stack: Vec<Inline>,
    first: usize,
    open: usize,
    /// The text the inline containers hold, brackets counted.
    inline_len: usize,
}

impl DumpFormatter {
    fn newline<W: ?Sized + Write>(writer: &mut W, depth: usize) -> io::Result<()> {
        writer.write_all(b"\n")?;
        for _ in 0..depth {
            writer.write_all(INDENT)?;
        }
        Ok(())
    }

    /// The innermost open container that may still fit on a line.
    fn innermost(&mut self) -> Option<&mut Inline> {
        if self.open > self.first {
            self.stack.get_mut(self.open - 1)
        } else {
            None
        }
    }

    /// Appends `bytes` to the innermost inline container, or writes them when there is none.
    fn put<W: ?Sized + Write>(&mut self, writer: &mut W, bytes: &[u8]) -> io::Result<()> {
        match self.innermost() {
            Some(open) => {
                open.text.extend_from_slice(bytes);
                self.inline_len += bytes.len();
                self.spill(writer)
            }
            None => writer.write_all(bytes),
        }
    }

    /// Lays the outermost inline containers over lines while the inline text is too long.
    fn spill<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        while self.inline_len > LINE && self.open > self.first {
            let outer = &mut self.stack[self.first];
            self.first += 1;
            // Its text and the closing bracket counted for it (its opening one is written).
            self.inline_len -= outer.text.len() + 1;
            self.depth += 1;
            // The opening bracket was written when the container began (see `open`).
            for (i, &start) in outer.starts.iter().enumerate() {
                let end = outer.starts.get(i + 1).map_or(outer.text.len(), |&next| next - 2);
                if i > 0 {
                    writer.write_all(b",")?;
                }
                Self::newline(writer, self.depth)?;
                writer.write_all(&outer.text[start..end])?;
            }
            outer.text.clear();
            outer.starts.clear();
        }
        if self.first == self.open {
            // Nothing is inline: the window starts again at the bottom of the stack.
            self.first = 0;
            self.open = 0;
        }
        Ok(())
    }

    fn open<W: ?Sized + Write>(&mut self, writer: &mut W, bracket: &[u8]) -> io::Result<()> {
        // The bracket goes where the container's text goes: a laid-out container writes it
        // first thing when it spills, so the bracket is the first byte of its parent's item.
        self.put(writer, bracket)?;
        if self.open == self.stack.len() {
            self.stack.push(Inline::default());
        }
        self.open += 1;
        self.inline_len += 1;
        Ok(())
    }

    fn close<W: ?Sized + Write>(&mut self, writer: &mut W, bracket: &[u8]) -> io::Result<()> {
        if self.open > self.first {
            self.open -= 1;
            let closing = self.open;
            let len = self.stack[closing].text.len();
            self.inline_len -= len + 1;
            if self.open > self.first {
                // Its text goes into its parent, the container below it on the stack.
                let (below, above) = self.stack.split_at_mut(closing);
                let parent = &mut below[closing - 1];
                parent.text.extend_from_slice(&above[0].text);
                parent.text.extend_from_slice(bracket);
                self.inline_len += len + bracket.len();
            } else {
                writer.write_all(&self.stack[closing].text)?;
                writer.write_all(bracket)?;
            }
            let closed = &mut self.stack[closing];
            closed.text.clear();
            closed.starts.clear();
            self.spill(writer)
        } else {
            self.depth -= 1;
            Self::newline(writer, self.depth)?;
            writer.write_all(bracket)
        }
    }

    /// Starts an item of the innermost open container.
    fn item<W: ?Sized + Write>(&mut self, writer: &mut W, first: bool) -> io::Result<()> {
        match self.innermost() {
            Some(open) => {
                if !first {
                    open.text.extend_from_slice(b", ");
                }
                open.starts.push(open.text.len());
                if !first {
                    self.inline_len += 2;
                }
                self.spill(writer)
            }
            None => {
                if !first {
                    writer.write_all(b",")?;
                }
                Self::newline(writer, self.depth)
            }
        }
    }

    /// Places a scalar that `format` writes, straight into the innermost inline container.
    fn scalar<W: ?Sized + Write>(
        &mut self,
        writer: &mut W,
        format: impl FnOnce(&mut Vec<u8>) -> io::Result<()>,
    ) -> io::Result<()> {
        match self.innermost() {
            Some(open) => {
                let before = open.text.len();
                format(&mut open.text)?;
                let added = open.text.len() - before;
                self.inline_len += added;
                self.spill(writer)
            }
            None => {
                let mut text = Vec::new();
                format(&mut text)?;
                writer.write_all(&text)
            }
        }
    }
}

macro_rules! scalars {
    ($($method:ident($ty:ty)),* $(,)?) => {
        $(
            fn $method<W: ?Sized + Write>(&mut self, writer: &mut W, value: $ty) -> io::Result<()> {
                self.scalar(writer, |out| CompactFormatter.$method(out, value))
            }
        )*
    };
}

impl Formatter for DumpFormatter {
    scalars!(
        write_bool(bool),
        write_i8(i8),
        write_i16(i16),
        write_i32(i32),
        write_i64(i64),
        write_i128(i128),
        write_u8(u8),
        write_u16(u16),
        write_u32(u32),
        write_u64(u64),
        write_u128(u128),
        write_f32(f32),
        write_f64(f64),
        write_number_str(&str),
        write_char_escape(serde_json::ser::CharEscape),
    );

    fn write_null<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.put(writer, b"null")
    }

    fn begin_string<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.put(writer, b"\"")
    }

    fn end_string<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.put(writer, b"\"")
    }

    fn write_string_fragment<W: ?Sized + Write>(&mut self, writer: &mut W, fragment: &str) -> io::Result<()> {
        self.put(writer, fragment.as_bytes())
    }

    fn write_raw_fragment<W: ?Sized + Write>(&mut self, writer: &mut W, fragment: &str) -> io::Result<()> {
        self.put(writer, fragment.as_bytes())
    }

    fn begin_array<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.open(writer, b"[")
    }

    fn end_array<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.close(writer, b"]")
    }

    fn begin_array_value<W: ?Sized + Write>(&mut self, writer: &mut W, first: bool) -> io::Result<()> {
        self.item(writer, first)
    }

    fn end_array_value<W: ?Sized + Write>(&mut self, _: &mut W) -> io::Result<()> {
        Ok(())
    }

    fn begin_object<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.open(writer, b"{")
    }

    fn end_object<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.close(writer, b"}")
    }

    fn begin_object_key<W: ?Sized + Write>(&mut self, writer: &mut W, first: bool) -> io::Result<()> {
        self.item(writer, first)
    }

    fn end_object_key<W: ?Sized + Write>(&mut self, _: &mut W) -> io::Result<()> {
        Ok(())
    }

    fn begin_object_value<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.put(writer, b": ")
    }

    fn end_object_value<W: ?Sized + Write>(&mut self, _: &mut W) -> io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use serde::Serialize;
    use serde_json::{Value, json};

    use super::*;

    fn layout(value: &Value) -> String {
        let mut out = Vec::new();
        let mut serializer = serde_json::Serializer::with_formatter(&mut out, DumpFormatter::default());
        value.serialize(&mut serializer).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn short_containers_stay_on_one_line_and_long_ones_are_indented() {
        // (A `Value`'s members are in key order.)
        let value = json!({
            "data": {
                "empty": [], "none": {},
                "keys": [{"frame": 0, "value": {"x": 0.5, "y": -1.0, "z": "NaN"}}],
                "long": (0..30).collect::<Vec<u32>>(),
                "text": "a \"quoted\"\nline"
            },
            "format": "seanim",
        });
        let numbers: Vec<String> = (0..30).map(|n| format!("      {n}")).collect();
        let expected = format!(
            r#"{{
  "data": {{
    "empty": [],
    "keys": [{{"frame": 0, "value": {{"x": 0.5, "y": -1.0, "z": "NaN"}}}}],
    "long": [
{}
    ],
    "none": {{}},
    "text": "a \"quoted\"\nline"
  }},
  "format": "seanim"
}}"#,
            numbers.join(",\n")
        );
        assert_eq!(layout(&value), expected);
    }

    #[test]
    fn every_value_reads_back_whatever_its_nesting() {
        let mut value = json!([1, "two", null, true, {"deep": [[[[]]], {"k": 1.25e-30}]}]);
        for depth in 0..12 {
            value = json!({ format!("level {depth}"): [value.clone(), depth, "x".repeat(depth * 9)] });
            let text = layout(&value);
            assert_eq!(serde_json::from_str::<Value>(&text).unwrap(), value, "{text}");
        }
    }
}
