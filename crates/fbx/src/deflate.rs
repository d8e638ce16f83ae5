//! The zlib streams of FBX's compressed arrays (RFC 1950 around RFC 1951), written here:
//! blocks of Huffman-coded bytes, one code per block made from the block's byte counts.
//!
//! Why not a general deflate crate: the arrays are numbers (doubles widened from floats,
//! small integers) whose bytes repeat in value far more than in sequence, so coding each byte
//! by its frequency keeps most of what LZ77 matching would, at several times the speed. And
//! each block header sends the literal/length code lengths and the distance code lengths as
//! two runs, as zlib does: ufbx before its November 2025 fix (in Blender 4.5's and 5.0's
//! `wm.fbx_import`) rejects a repeat code that crosses from one list into the other, which
//! miniz_oxide writes.

/// Bytes per block: each block carries its own code, fitted to its bytes.
const BLOCK: usize = 128 * 1024;

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

/// How often each byte value occurs in `block` (and a 257th count, 0, for the end of block).
fn histogram(block: &[u8]) -> [u32; 257] {
    // Four tables, one per byte of each group of four: runs of one value (the zero bytes of
    // widened floats) would otherwise wait on one counter, byte after byte.
    let mut tables = [[0u32; 256]; 4];
    let mut groups = block.chunks_exact(4);
    for group in &mut groups {
        tables[0][usize::from(group[0])] += 1;
        tables[1][usize::from(group[1])] += 1;
        tables[2][usize::from(group[2])] += 1;
        tables[3][usize::from(group[3])] += 1;
    }
    for &byte in groups.remainder() {
        tables[0][usize::from(byte)] += 1;
    }
    let mut freqs = [0u32; 257];
    for (value, freq) in freqs.iter_mut().take(256).enumerate() {
        *freq = tables.iter().map(|t| t[value]).sum();
    }
    freqs
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

/// Appends `data` to `out` as a zlib stream.
pub fn zlib(data: &[u8], out: &mut Vec<u8>) {
    out.reserve(data.len() / 2 + 64);
    // CMF 0x78 (deflate, 32 KiB window), FLG 0x01 (no dictionary, fastest; the check bits).
    out.extend_from_slice(&[0x78, 0x01]);
    let mut bits = Bits { out, acc: 0, count: 0 };
    let blocks = data.len().div_ceil(BLOCK).max(1);
    for (k, block) in data.chunks(BLOCK).chain(data.is_empty().then_some(&[][..])).enumerate() {
        let mut freqs = histogram(block);
        freqs[256] = 1;
        let literal_lengths = code_lengths(&freqs, MAX_BITS);
        let literal_codes = codes(&literal_lengths);
        // No distances are used; two one-bit distance codes keep that code complete too.
        let distance_lengths = [1u8, 1];
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
        bits.put(u32::from(k + 1 == blocks), 1);
        bits.put(2, 2);
        bits.put(0, 5); // HLIT: 257 literal/length codes
        bits.put(1, 5); // HDIST: 2 distance codes
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
        let table: Vec<(u32, u8)> = literal_codes
            .iter()
            .copied()
            .zip(literal_lengths.iter().copied())
            .collect();
        for &byte in block {
            let (code, len) = table[usize::from(byte)];
            bits.put(code, len);
        }
        bits.put(table[256].0, table[256].1);
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
        let one_value = vec![7u8; 1000];
        let every_byte: Vec<u8> = (0..=255u8).cycle().take(70_000).collect();
        let skewed: Vec<u8> = (0..200_000u32)
            .map(|i| if i % 977 == 0 { (i % 251) as u8 } else { 0 })
            .collect();
        for data in [
            &doubles,
            &indices,
            &one_value,
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
        for (data, most) in [(&doubles, 0.7), (&indices, 0.75)] {
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
