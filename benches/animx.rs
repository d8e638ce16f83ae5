//! AnimX: reading and writing a large generated animation plain, with LZ4 and with LZMA,
//! beside a memcpy of the plain bytes and the raw lz4_flex / xz2 throughput on the same data.
//! Every group's throughput is the plain (decompressed) size, so the figures compare. The
//! plain group also times the peer, resonite-core's reader (which reads plain files only).
//! Readers, decoders and memcpy drop their results outside the timed loop
//! (`iter_with_large_drop`): freeing what was read is not reading it.

// criterion_group! generates an undocumented public function.
#![allow(missing_docs)]

use animbin_animx::{AnimXFile, Encoding, ReadOptions, View};
use animbin_benches::memcpy_baseline;
use criterion::{
    BenchmarkGroup, Criterion, Throughput, black_box, criterion_group, criterion_main, measurement::WallTime,
};

/// The chunk size of lz4net's `LZ4Stream`, which `animbin-animx` writes too (1 MiB).
const LZ4_CHUNK_SIZE: usize = 1 << 20;

fn group<'a>(c: &'a mut Criterion, name: &str, plain: &[u8]) -> BenchmarkGroup<'a, WallTime> {
    let mut group = c.benchmark_group(name);
    group.throughput(Throughput::Bytes(plain.len() as u64));
    let plain = plain.to_vec();
    group.bench_function("memcpy", move |b| {
        b.iter_with_large_drop(|| memcpy_baseline(black_box(&plain)))
    });
    group
}

fn animx(c: &mut Criterion) {
    let plain_anim = animbin_benches::large::animx::animation(60, Encoding::Plain);
    let plain = animbin_animx::to_bytes(&plain_anim).expect("encodes");
    let tracks = plain_anim.tracks_bytes().expect("encodes");
    let options = ReadOptions::default();

    let mut g = group(c, "animx/plain", &plain);
    g.bench_function("read", |b| {
        b.iter_with_large_drop(|| animbin_animx::read(black_box(&plain)).expect("reads"))
    });
    g.bench_function("view", |b| {
        b.iter(|| View::parse(black_box(&plain)).expect("reads").tracks.len())
    });
    // The peer: resonite-core's owned reader on the same bytes.
    resonite_core::animation::Animation::from_animx(&plain[..]).expect("the peer reads the file");
    g.bench_function("peer: resonite-core read", |b| {
        b.iter(|| resonite_core::animation::Animation::from_animx(black_box(&plain[..])).expect("reads"))
    });
    g.bench_function("write", |b| {
        b.iter(|| animbin_animx::to_bytes(black_box(&plain_anim)).expect("writes"))
    });
    g.finish();

    let lz4_anim = animbin_benches::large::animx::animation(60, Encoding::Lz4);
    let lz4 = animbin_animx::to_bytes(&lz4_anim).expect("encodes");
    let mut g = group(c, "animx/lz4", &plain);
    g.bench_function("read", |b| {
        b.iter_with_large_drop(|| animbin_animx::read(black_box(&lz4)).expect("reads"))
    });
    g.bench_function("decompress", |b| {
        let file = AnimXFile::read(&lz4).expect("reads");
        b.iter(|| black_box(&file).tracks_bytes(&options).expect("decompresses").len())
    });
    g.bench_function("write", |b| {
        b.iter(|| animbin_animx::to_bytes(black_box(&lz4_anim)).expect("writes"))
    });
    // lz4_flex alone on the same tracks, in the same 1 MiB blocks.
    let blocks: Vec<(Vec<u8>, usize)> = tracks
        .chunks(LZ4_CHUNK_SIZE)
        .map(|c| (lz4_flex::block::compress(c), c.len()))
        .collect();
    g.bench_function("lz4_flex decompress", |b| {
        b.iter_with_large_drop(|| {
            let mut out = Vec::with_capacity(tracks.len());
            for (block, len) in &blocks {
                let start = out.len();
                out.resize(start + len, 0);
                lz4_flex::block::decompress_into(black_box(block), &mut out[start..]).expect("decodes");
            }
            out
        })
    });
    g.bench_function("lz4_flex compress", |b| {
        b.iter(|| {
            black_box(&tracks)
                .chunks(LZ4_CHUNK_SIZE)
                .map(|c| lz4_flex::block::compress(c).len())
                .sum::<usize>()
        })
    });
    g.finish();

    let lzma_anim = animbin_benches::large::animx::animation(60, Encoding::Lzma);
    let lzma = animbin_animx::to_bytes(&lzma_anim).expect("encodes");
    let mut g = group(c, "animx/lzma", &plain);
    g.sample_size(10);
    g.bench_function("read", |b| {
        b.iter_with_large_drop(|| animbin_animx::read(black_box(&lzma)).expect("reads"))
    });
    g.bench_function("write", |b| {
        b.iter(|| animbin_animx::to_bytes(black_box(&lzma_anim)).expect("writes"))
    });
    // xz2 alone on the same data: the container's raw LZMA1 behind a .lzma header.
    let file = AnimXFile::read(&lzma).expect("reads");
    let mut alone = file.data[..5].to_vec();
    alone.extend_from_slice(&file.data[5..13]);
    alone.extend_from_slice(&file.data[21..]);
    g.bench_function("xz2 decompress", |b| {
        b.iter_with_large_drop(|| {
            let mut stream = xz2::stream::Stream::new_lzma_decoder(u64::MAX).expect("decoder");
            let mut out = Vec::with_capacity(tracks.len() + 16);
            stream
                .process_vec(black_box(&alone), &mut out, xz2::stream::Action::Finish)
                .expect("decodes");
            out
        })
    });
    g.bench_function("xz2 compress", |b| {
        b.iter(|| {
            let mut options = xz2::stream::LzmaOptions::new_preset(6).expect("preset");
            options.dict_size(2 << 20);
            let mut stream = xz2::stream::Stream::new_lzma_encoder(&options).expect("encoder");
            let mut out = Vec::with_capacity(tracks.len());
            stream
                .process_vec(black_box(&tracks), &mut out, xz2::stream::Action::Finish)
                .expect("encodes");
            out
        })
    });
    g.finish();
}

/// About 48 MiB plain (720 bones), the size `cargo xtask bench-command` uses: reading plain
/// and LZ4 files too large for the cache, beside memcpy and lz4_flex alone. (LZMA stays at
/// the small size: its read is bounded by liblzma's decoder, measured above beside it.)
fn animx_large(c: &mut Criterion) {
    let plain_anim = animbin_benches::large::animx::animation(720, Encoding::Plain);
    let plain = animbin_animx::to_bytes(&plain_anim).expect("encodes");
    let mut g = group(c, "animx-large/plain", &plain);
    g.sample_size(10);
    g.bench_function("read", |b| {
        b.iter_with_large_drop(|| animbin_animx::read(black_box(&plain)).expect("reads"))
    });
    g.finish();

    let lz4_anim = animbin_benches::large::animx::animation(720, Encoding::Lz4);
    let lz4 = animbin_animx::to_bytes(&lz4_anim).expect("encodes");
    let tracks = plain_anim.tracks_bytes().expect("encodes");
    let mut g = group(c, "animx-large/lz4", &plain);
    g.sample_size(10);
    g.bench_function("read", |b| {
        b.iter_with_large_drop(|| animbin_animx::read(black_box(&lz4)).expect("reads"))
    });
    let blocks: Vec<(Vec<u8>, usize)> = tracks
        .chunks(LZ4_CHUNK_SIZE)
        .map(|c| (lz4_flex::block::compress(c), c.len()))
        .collect();
    g.bench_function("lz4_flex decompress", |b| {
        b.iter_with_large_drop(|| {
            let mut out = vec![0; tracks.len()];
            let mut at = 0;
            for (block, len) in &blocks {
                lz4_flex::block::decompress_into(black_box(block), &mut out[at..at + len]).expect("decodes");
                at += len;
            }
            out
        })
    });
    g.finish();
}

criterion_group!(benches, animx, animx_large);
criterion_main!(benches);
