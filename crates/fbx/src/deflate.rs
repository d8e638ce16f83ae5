//! The zlib streams of FBX's compressed arrays (RFC 1950 around RFC 1951), written here.
//!
//! Matches are found greedily with one hash probe per position (as zlib's fastest level
//! does), and each block of 65,536 tokens gets Huffman codes of its own. Why not a general
//! deflate crate: each block header here sends the literal/length code lengths and the
//! distance code lengths as two runs, as zlib does; ufbx before its November 2025 fix (in
//! Blender 4.5's and 5.0's `wm.fbx_import`) rejects a repeat code that crosses from one list
//! into the other, which miniz_oxide writes.

/// The longest code deflate allows for literals and lengths.
const MAX_BITS: u8 = 15;

/// The longest code of the code-length alphabet.
const MAX_LENGTH_BITS: u8 = 7;

/// The order in which a dynamic block header gives the code-length code's lengths.
const LENGTH_ORDER: [usize; 19] = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15];

/// Bits, least significant first, as deflate packs them.
struct Bits<'a> {
    out: &'a mut Vec<u8>,
    acc: u64,
    count: u32,
}

impl Bits<'_> {
    #[inline]
    fn put(&mut self, value: u32, bits: u8) {
        self.acc |= u64::from(value) << self.count;
        self.count += u32::from(bits);
        if self.count >= 32 {
            self.out.extend_from_slice(&(self.acc as u32).to_le_bytes());
            self.acc >>= 32;
            self.count -= 32;
        }
    }

    fn finish(mut self) {
        while self.count > 0 {
            self.out.push(self.acc as u8);
            self.acc >>= 8;
            self.count = self.count.saturating_sub(8);
        }
    }
}

/// Code lengths (at most `limit` bits) of a complete prefix code for `freqs`; symbols of
/// frequency 0 get none. At least two symbols must have a frequency.
fn code_lengths(freqs: &[u32], limit: u8) -> Vec<u8> {
    let mut lengths = vec![0u8; freqs.len()];
    let mut symbols: Vec<usize> = (0..freqs.len()).filter(|&s| freqs[s] > 0).collect();
    if symbols.len() < 2 {
        // One symbol still needs a complete code: it and a neighbour get one bit each.
        let first = symbols.first().copied().unwrap_or(0);
        let other = if first == 0 { 1 } else { 0 };
        lengths[first] = 1;
        lengths[other] = 1;
        return lengths;
    }
    // Huffman's construction over the sorted leaves with a second queue of merged nodes.
    symbols.sort_by_key(|&s| (freqs[s], s));
    let n = symbols.len();
    let mut weight: Vec<u64> = symbols.iter().map(|&s| u64::from(freqs[s])).collect();
    let mut parent = vec![usize::MAX; 2 * n - 1];
    weight.reserve(n - 1);
    let (mut leaf, mut node) = (0, n);
    let pick = |weight: &Vec<u64>, leaf: &mut usize, node: &mut usize| {
        if *leaf < n && (*node >= weight.len() || weight[*leaf] <= weight[*node]) {
            *leaf += 1;
            *leaf - 1
        } else {
            *node += 1;
            *node - 1
        }
    };
    for _ in 0..n - 1 {
        let a = pick(&weight, &mut leaf, &mut node);
        let b = pick(&weight, &mut leaf, &mut node);
        let id = weight.len();
        weight.push(weight[a] + weight[b]);
        parent[a] = id;
        parent[b] = id;
    }
    // Depths from the root down (parents come after their children).
    let mut depth = vec![0u32; 2 * n - 1];
    for id in (0..2 * n - 2).rev() {
        depth[id] = depth[parent[id]] + 1;
    }
    for (k, &s) in symbols.iter().enumerate() {
        lengths[s] = depth[k].min(u32::from(limit)) as u8;
    }
    // Clamping broke the Kraft sum (sum of 2^(limit - length) must be 2^limit): lengthen the
    // longest codes still below the limit until it holds, then shorten codes while it is
    // short of complete.
    let full = 1u64 << limit;
    let kraft = |lengths: &[u8]| -> u64 { lengths.iter().filter(|&&l| l > 0).map(|&l| 1u64 << (limit - l)).sum() };
    let mut sum = kraft(&lengths);
    // Symbols by frequency, rarest first: they give up bits first.
    while sum > full {
        let s = *symbols
            .iter()
            .filter(|&&s| lengths[s] < limit)
            .max_by_key(|&&s| lengths[s])
            .expect("a code below the limit while the sum is over");
        sum -= 1u64 << (limit - lengths[s] - 1);
        lengths[s] += 1;
    }
    while sum < full {
        let gap = full - sum;
        let Some(&s) = symbols
            .iter()
            .rev()
            .filter(|&&s| lengths[s] > 1 && (1u64 << (limit - lengths[s])) <= gap)
            .min_by_key(|&&s| lengths[s])
        else {
            break;
        };
        sum += 1u64 << (limit - lengths[s]);
        lengths[s] -= 1;
    }
    lengths
}

/// Canonical codes of `lengths` (RFC 1951 3.2.2), bit-reversed for writing least
/// significant bit first.
fn codes(lengths: &[u8]) -> Vec<u32> {
    let mut count = [0u32; 16];
    for &l in lengths {
        count[usize::from(l)] += 1;
    }
    count[0] = 0;
    let mut next = [0u32; 16];
    let mut code = 0;
    for bits in 1..16 {
        code = (code + count[bits - 1]) << 1;
        next[bits] = code;
    }
    lengths
        .iter()
        .map(|&l| {
            if l == 0 {
                return 0;
            }
            let c = next[usize::from(l)];
            next[usize::from(l)] += 1;
            c.reverse_bits() >> (32 - u32::from(l))
        })
        .collect()
}

/// `lengths` in the code-length alphabet (0-15, 16 repeat, 17 and 18 zeros), each with its
/// extra bits.
fn run_length(lengths: &[u8], out: &mut Vec<(u8, u8)>) {
    let mut k = 0;
    while k < lengths.len() {
        let value = lengths[k];
        let mut run = lengths[k..].iter().take_while(|&&l| l == value).count();
        k += run;
        if value == 0 {
            while run >= 11 {
                let n = run.min(138);
                out.push((18, (n - 11) as u8));
                run -= n;
            }
            if run >= 3 {
                out.push((17, (run - 3) as u8));
                run = 0;
            }
        } else {
            out.push((value, 0));
            run -= 1;
            while run >= 3 {
                let n = run.min(6);
                out.push((16, (n - 3) as u8));
                run -= n;
            }
        }
        out.extend(std::iter::repeat_n((value, 0), run));
    }
}

/// Adler-32 of `data` (RFC 1950).
fn adler32(data: &[u8]) -> u32 {
    let (mut a, mut b) = (1u32, 0u32);
    // 5552 bytes is the most that cannot overflow `b` before the modulo.
    for chunk in data.chunks(5552) {
        for &byte in chunk {
            a += u32::from(byte);
            b += a;
        }
        a %= 65521;
        b %= 65521;
    }
    (b << 16) | a
}

/// Length codes 257..=285: the shortest length of each, and its extra bits (RFC 1951 3.2.5).
const LENGTH_BASE: [u16; 29] = [
    3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258,
];
const LENGTH_EXTRA: [u8; 29] = [
    0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0,
];

/// Distance codes 0..=29: the shortest distance of each, and its extra bits.
const DISTANCE_BASE: [u16; 30] = [
    1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145,
    8193, 12289, 16385, 24577,
];
const DISTANCE_EXTRA: [u8; 30] = [
    0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13,
];

/// Tokens per block: each block carries its own codes, fitted to its tokens.
const BLOCK_TOKENS: usize = 1 << 16;

/// Bits of the match finder's hash of four bytes.
const HASH_BITS: u32 = 13;

/// A match token: the flag, the distance's code (5 bits, from bit 23), the length less 3
/// (8 bits, from bit 15) and the distance less 1 (15 bits).
const MATCH: u32 = 1 << 31;

/// The code of each distance less 1: directly below 256, by its bits from the eighth up
/// beyond (as zlib's table does).
fn distance_codes() -> [u8; 512] {
    let mut table = [0u8; 512];
    for (k, code) in table.iter_mut().enumerate() {
        let distance = if k < 256 { k + 1 } else { ((k - 256) << 7) + 1 };
        *code = code_of(&DISTANCE_BASE, distance as u16) as u8;
    }
    table
}

/// The index of the last entry of `base` not above `value`.
fn code_of(base: &[u16], value: u16) -> usize {
    base.partition_point(|&b| b <= value) - 1
}

/// The match finder's state over one array: `data` turned into literals and matches
/// (greedy, one hash probe, as zlib's fastest level does; where nothing matches, positions
/// are probed further and further apart, as LZ4 does, so that bytes without repeats, such as
/// mantissas, cost little), a block of tokens at a time.
struct Matcher<'a> {
    data: &'a [u8],
    at: usize,
    misses: usize,
    heads: Vec<u32>,
    distance_code: [u8; 512],
}

impl<'a> Matcher<'a> {
    fn new(data: &'a [u8]) -> Self {
        Self {
            data,
            at: 0,
            misses: 0,
            heads: vec![0u32; 1 << HASH_BITS],
            distance_code: distance_codes(),
        }
    }

    /// Fills `tokens` with at most [`BLOCK_TOKENS`] tokens (a few more at the array's end);
    /// whether the array is done.
    fn next_block(&mut self, tokens: &mut Vec<u32>) -> bool {
        let data = self.data;
        tokens.clear();
        let hash = |at: usize| {
            let four = u32::from_le_bytes([data[at], data[at + 1], data[at + 2], data[at + 3]]);
            (four.wrapping_mul(0x9E37_79B1) >> (32 - HASH_BITS)) as usize
        };
        let mut at = self.at;
        while at + 8 <= data.len() && tokens.len() < BLOCK_TOKENS {
            let h = hash(at);
            let candidate = self.heads[h] as usize;
            self.heads[h] = (at + 1) as u32;
            // A position past 4 GiB wraps in the table: the bytes compared keep a match true.
            if let Some(distance) = candidate.checked_sub(1).and_then(|from| at.checked_sub(from)) {
                let from = at - distance;
                if (1..=32_768).contains(&distance) && data[from..from + 4] == data[at..at + 4] {
                    let most = (data.len() - at).min(258);
                    let mut length = 4;
                    // Eight bytes at a time, then the first that differs.
                    while length + 8 <= most {
                        let a =
                            u64::from_le_bytes(data[from + length..from + length + 8].try_into().unwrap_or_default());
                        let b = u64::from_le_bytes(data[at + length..at + length + 8].try_into().unwrap_or_default());
                        if a != b {
                            length += ((a ^ b).trailing_zeros() / 8) as usize;
                            break;
                        }
                        length += 8;
                    }
                    while length < most && data[from + length] == data[at + length] {
                        length += 1;
                    }
                    let d = distance - 1;
                    let code = self.distance_code[if d < 256 { d } else { 256 + (d >> 7) }];
                    tokens.push(MATCH | (u32::from(code) << 23) | ((length as u32 - 3) << 15) | d as u32);
                    at += length;
                    self.misses = 0;
                    continue;
                }
            }
            let step = 1 + (self.misses >> 5).min(15);
            self.misses += 1;
            let end = (at + step).min(data.len());
            tokens.extend(data[at..end].iter().map(|&b| u32::from(b)));
            at = end;
        }
        if at + 8 > data.len() {
            tokens.extend(data[at..].iter().map(|&b| u32::from(b)));
            at = data.len();
        }
        self.at = at;
        at == data.len()
    }
}

/// Appends `data` to `out` as a zlib stream.
pub fn zlib(data: &[u8], out: &mut Vec<u8>) {
    out.reserve(data.len() / 2 + 64);
    // CMF 0x78 (deflate, 32 KiB window), FLG 0x01 (no dictionary, fastest; the check bits).
    out.extend_from_slice(&[0x78, 0x01]);
    let mut bits = Bits { out, acc: 0, count: 0 };
    let mut length_code = [0u8; 256];
    for (length, code) in length_code.iter_mut().enumerate() {
        *code = code_of(&LENGTH_BASE, length as u16 + 3) as u8;
    }
    let mut matcher = Matcher::new(data);
    let mut block = Vec::with_capacity(BLOCK_TOKENS + 8);
    loop {
        let last = matcher.next_block(&mut block);
        let mut literal_freqs = [0u32; 286];
        let mut distance_freqs = [0u32; 30];
        for &token in &block {
            if token & MATCH == 0 {
                literal_freqs[token as usize] += 1;
            } else {
                let length = (token >> 15) & 0xff;
                literal_freqs[257 + usize::from(length_code[length as usize])] += 1;
                distance_freqs[((token >> 23) & 0x1f) as usize] += 1;
            }
        }
        literal_freqs[256] = 1;
        let mut literal_lengths = code_lengths(&literal_freqs, MAX_BITS);
        let mut distance_lengths = code_lengths(&distance_freqs, MAX_BITS);
        let literal_count = literal_lengths
            .iter()
            .rposition(|&l| l > 0)
            .map_or(257, |last| (last + 1).max(257));
        let distance_count = distance_lengths
            .iter()
            .rposition(|&l| l > 0)
            .map_or(2, |last| (last + 1).max(2));
        literal_lengths.truncate(literal_count);
        distance_lengths.truncate(distance_count);
        let literal_codes = codes(&literal_lengths);
        let distance_codes = codes(&distance_lengths);
        // The two lists are run-length coded apart (see the module's documentation).
        let mut runs = Vec::with_capacity(64);
        run_length(&literal_lengths, &mut runs);
        run_length(&distance_lengths, &mut runs);
        let mut length_freqs = [0u32; 19];
        for &(symbol, _) in &runs {
            length_freqs[usize::from(symbol)] += 1;
        }
        let length_lengths = code_lengths(&length_freqs, MAX_LENGTH_BITS);
        let length_codes = codes(&length_lengths);
        let sent = LENGTH_ORDER
            .iter()
            .rposition(|&s| length_lengths[s] > 0)
            .map_or(4, |last| (last + 1).max(4));
        bits.put(u32::from(last), 1);
        bits.put(2, 2);
        bits.put((literal_count - 257) as u32, 5);
        bits.put((distance_count - 1) as u32, 5);
        bits.put((sent - 4) as u32, 4);
        for &symbol in &LENGTH_ORDER[..sent] {
            bits.put(u32::from(length_lengths[symbol]), 3);
        }
        for &(symbol, extra) in &runs {
            let s = usize::from(symbol);
            bits.put(length_codes[s], length_lengths[s]);
            match symbol {
                16 => bits.put(u32::from(extra), 2),
                17 => bits.put(u32::from(extra), 3),
                18 => bits.put(u32::from(extra), 7),
                _ => {}
            }
        }
        for &token in &block {
            if token & MATCH == 0 {
                let t = token as usize;
                bits.put(literal_codes[t], literal_lengths[t]);
            } else {
                let length = ((token >> 15) & 0xff) as u16;
                let code = usize::from(length_code[usize::from(length)]);
                bits.put(literal_codes[257 + code], literal_lengths[257 + code]);
                bits.put(u32::from(length + 3 - LENGTH_BASE[code]), LENGTH_EXTRA[code]);
                let distance = (token & 0x7fff) as u16 + 1;
                let code = ((token >> 23) & 0x1f) as usize;
                bits.put(distance_codes[code], distance_lengths[code]);
                bits.put(u32::from(distance - DISTANCE_BASE[code]), DISTANCE_EXTRA[code]);
            }
        }
        bits.put(literal_codes[256], literal_lengths[256]);
        if last {
            break;
        }
    }
    bits.finish();
    out.extend_from_slice(&adler32(data).to_be_bytes());
}

#[cfg(test)]
mod tests {
    use std::io::Read;

    use super::*;

    fn inflate(stream: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        flate2::read::ZlibDecoder::new(stream)
            .read_to_end(&mut out)
            .expect("a valid zlib stream");
        out
    }

    #[test]
    fn every_kind_of_array_inflates_to_its_bytes() {
        let doubles: Vec<u8> = (0..100_000)
            .flat_map(|i| f64::from((i as f32 * 0.37).sin()).to_le_bytes())
            .collect();
        let indices: Vec<u8> = (0..300_000i32).flat_map(|i| (i / 3).to_le_bytes()).collect();
        let one_value = vec![7u8; 100_000];
        let far: Vec<u8> = (0..200_000u32)
            .map(|i| ((i % 40_000).wrapping_mul(2_654_435_761) >> 24) as u8)
            .collect();
        let every_byte: Vec<u8> = (0..=255u8).cycle().take(70_000).collect();
        let skewed: Vec<u8> = (0..200_000u32)
            .map(|i| if i % 977 == 0 { (i % 251) as u8 } else { 0 })
            .collect();
        for data in [
            &doubles,
            &indices,
            &one_value,
            &far,
            &every_byte,
            &skewed,
            &vec![1, 2, 3],
            &Vec::new(),
        ] {
            let mut stream = Vec::new();
            zlib(data, &mut stream);
            assert_eq!(&inflate(&stream), data);
        }
        // Doubles widened from floats end in zero bytes, small integers begin with them.
        for (data, most) in [(&doubles, 0.7), (&indices, 0.5), (&one_value, 0.01)] {
            let mut stream = Vec::new();
            zlib(data, &mut stream);
            assert!(
                (stream.len() as f64) < most * data.len() as f64,
                "{} of {}",
                stream.len(),
                data.len()
            );
        }
    }

    /// The first block header of a zlib stream: where each repeat code of its code-length
    /// list starts and how many lengths it gives, and how many literal/length lengths there
    /// are.
    fn header_runs(stream: &[u8]) -> (Vec<(usize, usize)>, usize) {
        let mut position = 16; // past the two zlib header bytes
        let mut bit = |count: usize| {
            let mut value = 0;
            for k in 0..count {
                value |= usize::from(stream[position / 8] >> (position % 8) & 1) << k;
                position += 1;
            }
            value
        };
        let (_final, kind) = (bit(1), bit(2));
        assert_eq!(kind, 2, "a dynamic block");
        let (literals, distances, sent) = (bit(5) + 257, bit(5) + 1, bit(4) + 4);
        let mut length_lengths = [0u8; 19];
        for &symbol in &LENGTH_ORDER[..sent] {
            length_lengths[symbol] = bit(3) as u8;
        }
        // Canonical codes, read most significant bit first as deflate sends Huffman codes.
        let canonical: Vec<u32> = codes(&length_lengths)
            .iter()
            .zip(&length_lengths)
            .map(|(&c, &l)| {
                if l == 0 {
                    u32::MAX
                } else {
                    c.reverse_bits() >> (32 - u32::from(l))
                }
            })
            .collect();
        let (mut runs, mut index) = (Vec::new(), 0);
        while index < literals + distances {
            let (mut code, mut length) = (0u32, 0u8);
            let symbol = loop {
                code = (code << 1) | bit(1) as u32;
                length += 1;
                if let Some(s) = (0..19).find(|&s| length_lengths[s] == length && canonical[s] == code) {
                    break s;
                }
            };
            let count = match symbol {
                16 => 3 + bit(2),
                17 => 3 + bit(3),
                18 => 11 + bit(7),
                _ => 1,
            };
            if symbol >= 16 {
                runs.push((index, count));
            }
            index += count;
        }
        (runs, literals)
    }

    #[test]
    fn no_code_length_repeat_crosses_from_literal_into_distance_lengths() {
        // Old ufbx (Blender 4.5's and 5.0's wm.fbx_import) rejects such a repeat: a cube's
        // normals were the array it failed on, with miniz_oxide's stream.
        // The normals of graph/step_cubic.glb's cube, on which miniz_oxide's level 1 stream
        // repeats a code length from the last literal/length codes into the distance codes.
        let cube: [i8; 72] = [
            0, 0, 1, 0, -1, 0, -1, 0, 0, 0, 0, 1, 0, -1, 0, 1, 0, 0, 0, 0, -1, 0, -1, 0, -1, 0, 0, 0, 0, -1, 0, -1, 0,
            1, 0, 0, 0, 0, 1, 0, 1, 0, -1, 0, 0, 0, 0, 1, 0, 1, 0, 1, 0, 0, 0, 0, -1, 0, 1, 0, -1, 0, 0, 0, 0, -1, 0,
            1, 0, 1, 0, 0,
        ];
        let normals: Vec<u8> = cube.iter().flat_map(|&v| f64::from(v).to_le_bytes()).collect();
        let counting: Vec<u8> = (0..5000i32).flat_map(|i| i.to_le_bytes()).collect();
        for data in [&normals, &counting, &vec![0u8; 300]] {
            let mut stream = Vec::new();
            zlib(data, &mut stream);
            let (runs, literals) = header_runs(&stream);
            assert!(!runs.is_empty(), "the header uses repeat codes");
            for (start, count) in runs {
                assert!(
                    start + count <= literals || start >= literals,
                    "a repeat over {start}..{}",
                    start + count
                );
            }
            assert_eq!(&inflate(&stream), data);
        }
    }

    #[test]
    fn codes_are_complete_and_within_their_limit() {
        // Fibonacci frequencies make the deepest Huffman trees.
        let mut freqs = vec![0u32; 40];
        let (mut a, mut b) = (1u32, 1u32);
        for f in freqs.iter_mut() {
            *f = a;
            (a, b) = (b, a.saturating_add(b));
        }
        for limit in [7, 15] {
            let lengths = code_lengths(&freqs, limit);
            assert!(lengths.iter().all(|&l| (1..=limit).contains(&l)));
            let kraft: u64 = lengths.iter().map(|&l| 1u64 << (limit - l)).sum();
            assert_eq!(kraft, 1 << limit);
        }
    }
}
