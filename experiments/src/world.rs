//! `experiments world --radius R --seed S (--chunks LIST | --range LO:HI) [--out FILE]`: the
//! points of chunks of a deterministic chunked world ([`poisson_nd::chunked::World`]), as CSV.
//!
//! A chunk's points depend only on the seed, the settings and the chunk, so separate runs over
//! parts of a block write exactly the rows of one run over the whole block. The file holds one
//! row per point: its coordinates, then the integer coordinates of its chunk
//! (`x0,…,x{D−1},c0,…,c{D−1}`; docs/formats.md, "Chunked worlds"). Everything is checked
//! before a point is decided, and the file appears whole or not at all.

use crate::domains;
use crate::format::exact;
use crate::io::write_atomically;
use crate::with_dim;
use poisson_nd::chunked::{ChunkPoints, World};
use poisson_nd::{Error, Point, Progress};
use std::collections::HashMap;
use std::io::Write;
use std::num::IntErrorKind;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// The most chunks one run writes unless `--max-chunks` says otherwise.
pub const DEFAULT_MAX_CHUNKS: u64 = 4096;

/// How far from the coordinate origin, in radii, a requested chunk may reach: the world's
/// cells keep their distance under rounding up to about 10^8 radii (docs/algorithms.md,
/// "Chunked worlds"), and the bound also keeps the cell keys far from integer overflow.
pub const REACH_IN_RADII: f64 = 1e8;

/// Arguments of `experiments world`.
#[derive(clap::Args, Debug, Clone)]
#[command(group(clap::ArgGroup::new("request").required(true).args(["chunks", "range"])))]
pub struct WorldArgs {
    /// The world.
    #[command(flatten)]
    pub settings: WorldSettings,
    /// The chunks to write, in this order: integer coordinates separated by commas, chunks by
    /// semicolons ("0,0;1,0;-3,7"). A chunk listed twice is an error.
    #[arg(long, allow_hyphen_values = true, value_name = "LIST")]
    pub chunks: Option<String>,
    /// The block of chunks LO ≤ c < HI on every axis ("-4,-4:4,4", half-open like a Rust
    /// range), written in lexicographic order, last axis fastest.
    #[arg(long, allow_hyphen_values = true, value_name = "LO:HI")]
    pub range: Option<String>,
    /// The most chunks one run may write; a larger request is an error.
    #[arg(long, default_value_t = DEFAULT_MAX_CHUNKS,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub max_chunks: u64,
    /// Output file, CSV ("-" for standard output). Nothing is written without it.
    // Its own id: the report's `--out` (with a default) must not leak into it.
    #[arg(long = "out", id = "world_out", value_name = "FILE")]
    pub out: Option<PathBuf>,
}

/// The settings of a world: its dimension, radius, seed and layout. The same settings give
/// the same points whoever asks (`experiments world`, the Python package's `World`).
#[derive(clap::Args, Debug, Clone, PartialEq)]
pub struct WorldSettings {
    /// Dimension, 1 to 8. A chunk needs the 5^D cells around it: from 6D on, a request
    /// takes seconds to minutes even in a small box (README, "Streaming worlds").
    #[arg(long, default_value_t = 2)]
    pub dim: usize,
    /// Poisson-disk radius.
    #[arg(long, allow_hyphen_values = true)]
    pub radius: f64,
    /// Seed of the world: the same seed and settings give the same points in every chunk.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Bridson's candidates per active point (default: the library's, 30).
    #[arg(long)]
    pub k: Option<u32>,
    /// Chunk side length (default: 64 radii in 1D and 2D, 32 from 3D, or the smallest side allowed,
    /// (2 + √2·(D − 1)) radii, when that is more).
    #[arg(long, allow_hyphen_values = true)]
    pub chunk_side: Option<f64>,
    /// Confine the world to a box of these side lengths, comma separated: a closed box
    /// keeps every point inside it (chunks past it are empty); with --periodic the box is a
    /// torus, which whole chunks must tile (at least two per axis; chunks 0 ≤ c < n).
    #[arg(
        long = "box",
        value_delimiter = ',',
        allow_hyphen_values = true,
        value_name = "E0,E1,..."
    )]
    pub extent: Option<Vec<f64>>,
    /// Where chunk 0 starts, comma separated (default: 0 on every axis); with --box, the
    /// box's lower corner.
    #[arg(long, value_delimiter = ',', allow_hyphen_values = true, value_name = "O0,O1,...")]
    pub origin: Option<Vec<f64>>,
    /// The box of --box is periodic (a torus): distances wrap around.
    #[arg(long)]
    pub periodic: bool,
    /// The most points one chunk may hold (default: the library's limit, 10^8); a radius
    /// whose densest packing of a chunk could pass it is refused before anything runs.
    #[arg(long)]
    pub max_points: Option<usize>,
}

/// Which chunks a run writes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ChunkRequest<const D: usize> {
    /// These chunks, in this order.
    List(Vec<[i64; D]>),
    /// The chunks `lo ≤ c < hi` on every axis, in lexicographic order.
    Range {
        /// The lowest chunk.
        lo: [i64; D],
        /// One past the highest chunk on every axis.
        hi: [i64; D],
    },
}

impl<const D: usize> ChunkRequest<D> {
    /// How many chunks the request covers (saturating at `u128::MAX`).
    pub fn count(&self) -> u128 {
        match self {
            ChunkRequest::List(chunks) => chunks.len() as u128,
            ChunkRequest::Range { lo, hi } => (0..D)
                .map(|i| (i128::from(hi[i]) - i128::from(lo[i])).max(0) as u128)
                .fold(1u128, u128::saturating_mul),
        }
    }
}

/// Runs `experiments world`. Errors are one line; nothing is written on an error.
pub fn run(args: &WorldArgs) -> Result<(), String> {
    let dim = args.settings.dim;
    with_dim!(dim, D => world_in::<D>(args), else Err(domains::dim_error(dim)))
}

fn world_in<const D: usize>(args: &WorldArgs) -> Result<(), String> {
    // Settled before any point is decided, so that a bad name costs nothing.
    if let Some(path) = &args.out {
        check_output(path)?;
    }
    let request = match (&args.chunks, &args.range) {
        (Some(list), None) => ChunkRequest::List(parse_chunk_list::<D>(list)?),
        (None, Some(range)) => {
            let (lo, hi) = parse_range::<D>(range)?;
            ChunkRequest::Range { lo, hi }
        }
        // clap's group makes exactly one of them present.
        _ => return Err("give exactly one of --chunks and --range".into()),
    };
    let bar = crate::progress::spinner("world");
    let (mut world, origin) =
        args.settings.build::<D>(crate::progress::hook(&bar), &SettingNames::FLAGS)?;
    let count = request.count();
    if count > u128::from(args.max_chunks) {
        let flag = match &request {
            ChunkRequest::List(_) => "--chunks lists",
            ChunkRequest::Range { .. } => "--range covers",
        };
        return Err(format!("{flag} {count} chunks, more than --max-chunks {}", args.max_chunks));
    }
    // A torus only has the chunks 0 ≤ c < n, which the library checks itself.
    if world.torus_chunks().is_none() {
        check_reach(&world, &origin, &request)?;
    }
    let start = Instant::now();
    let chunks: Vec<ChunkPoints<D>> = match &request {
        ChunkRequest::List(list) => {
            let points = world.chunks(list).map_err(|e| format!("--chunks: {e}"))?;
            list.iter().copied().zip(points).collect()
        }
        ChunkRequest::Range { lo, hi } => {
            world.range(*lo, *hi).map_err(|e| format!("--range: {e}"))?
        }
    };
    let seconds = start.elapsed().as_secs_f64();
    bar.finish_and_clear();
    if let Some(path) = &args.out {
        let bytes = encode_csv(&chunks);
        let written = if path.as_os_str() == "-" {
            std::io::stdout().lock().write_all(&bytes)
        } else {
            write_atomically(path, &bytes)
        };
        written.map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    // After the file, so that a failed write leaves one line on stderr, the error.
    let points: usize = chunks.iter().map(|(_, p)| p.len()).sum();
    eprintln!(
        "world D={D} chunks={} points={points} cells_decided={} time={seconds:.3}s",
        chunks.len(),
        world.stats().cells_decided
    );
    Ok(())
}

/// What errors call the settings: the command line's flags or another client's names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SettingNames {
    /// The radius (`--radius`).
    pub radius: &'static str,
    /// Candidates per active point (`--k`).
    pub k: &'static str,
    /// The chunk side (`--chunk-side`).
    pub chunk_side: &'static str,
    /// The box (`--box`).
    pub extent: &'static str,
    /// Whether the box is periodic (`--periodic`).
    pub periodic: &'static str,
    /// The point limit of a chunk (`--max-points`).
    pub max_points: &'static str,
}

impl SettingNames {
    /// The command line's flags.
    pub const FLAGS: SettingNames = SettingNames {
        radius: "--radius",
        k: "--k",
        chunk_side: "--chunk-side",
        extent: "--box",
        periodic: "--periodic",
        max_points: "--max-points",
    };
}

impl WorldSettings {
    /// The world these settings describe (`D` is [`dim`](Self::dim)), showing its progress
    /// to `hook`, and the origin of its chunk lattice. Errors are one line that calls the
    /// settings by `names`.
    pub fn build<const D: usize>(
        &self,
        hook: impl Fn(Progress) -> ControlFlow<()> + Send + Sync + 'static,
        names: &SettingNames,
    ) -> Result<(World<D>, Point<D>), String> {
        build_world(self, hook, names)
    }
}

fn build_world<const D: usize>(
    args: &WorldSettings,
    hook: impl Fn(Progress) -> ControlFlow<()> + Send + Sync + 'static,
    names: &SettingNames,
) -> Result<(World<D>, Point<D>), String> {
    let mut builder = World::<D>::builder(args.radius, args.seed).with_progress(hook);
    if let Some(side) = args.chunk_side {
        builder = builder.with_chunk_side(side);
    }
    if let Some(k) = args.k {
        // Bounded as every count of the samplers is (each multiplies a run's time).
        let most = crate::spec::MAX_COUNT;
        if u64::from(k) > most {
            return Err(format!("{} must be at most {most}, got {k}", names.k));
        }
        builder = builder.with_attempts(k);
    }
    if let Some(max_points) = args.max_points {
        builder = builder.with_max_points(max_points);
    }
    let origin: Point<D> = match (&args.extent, &args.origin) {
        (Some(extent), origin) => {
            let origin = origin.clone().unwrap_or_else(|| vec![0.0; D]);
            let domain = domains::from_slices::<D>(&origin, extent, args.periodic)
                .map_err(|e| e.to_string())?;
            builder = builder.with_box(domain);
            *domain.origin()
        }
        (None, _) if args.periodic => {
            return Err(format!(
                "{} needs {}, the side lengths of the torus",
                names.periodic, names.extent
            ));
        }
        (None, Some(origin)) => {
            let origin: Point<D> = origin.as_slice().try_into().map_err(|_| {
                Error::DimensionMismatch { what: "origin", expected: D, got: origin.len() }
                    .to_string()
            })?;
            builder = builder.with_origin(origin);
            origin
        }
        (None, None) => [0.0; D],
    };
    let SettingNames { radius: r, k, chunk_side: side, extent, max_points: limit_name, .. } =
        *names;
    let world = builder.build().map_err(|e| match e {
        Error::ChunkSideTooSmall { .. } | Error::OutOfRange { name: "the chunk side", .. } => {
            format!("{side}: {e}")
        }
        Error::TorusNotTiled { .. } => {
            format!("{e}; choose a {side} that divides every side of {extent} at least twice")
        }
        Error::ZeroCount("max_points") => format!("{limit_name} must be at least 1, got 0"),
        Error::ZeroCount(_) => format!("{k} must be at least 1, got 0"),
        Error::TooManyPoints { radius, estimated_points, estimated_bytes, limit } => format!(
            "{r} {} could place about {estimated_points:.3e} points \
             ({estimated_bytes:.3e} bytes) in one chunk, over the limit of {limit} points; use \
             a larger {r}, a smaller {side}, or raise {limit_name}",
            poisson_nd::error::Short::of(&radius)
        ),
        other => other.to_string(),
    })?;
    Ok((world, origin))
}

/// Refuses an output that is not CSV: the chunk columns are integers, a format of their own.
fn check_output(path: &Path) -> Result<(), String> {
    let is_csv = path.as_os_str() == "-"
        || path.extension().and_then(|e| e.to_str()).is_some_and(|e| e.eq_ignore_ascii_case("csv"));
    if is_csv {
        Ok(())
    } else {
        Err(format!(
            "--out {}: world writes CSV only (a .csv file, or - for standard output)",
            path.display()
        ))
    }
}

/// Refuses chunks that reach farther than [`REACH_IN_RADII`] radii from the coordinate
/// origin along some axis.
pub fn check_reach<const D: usize>(
    world: &World<D>,
    origin: &Point<D>,
    request: &ChunkRequest<D>,
) -> Result<(), String> {
    // Never past the limit of every coordinate either (1e100, reached by large radii).
    let limit = (REACH_IN_RADII * world.radius()).min(poisson_nd::limits::MAX_LENGTH);
    let side = world.chunk_side();
    // The farthest a block of chunks from `lo` to `hi` (inclusive) reaches along axis `i`.
    let reach = |i: usize, lo: i64, hi: i64| {
        let low = origin[i] + lo as f64 * side[i];
        let high = origin[i] + (hi as f64 + 1.0) * side[i];
        low.abs().max(high.abs())
    };
    let too_far = |what: String, i: usize, distance: f64| {
        let why = if limit < poisson_nd::limits::MAX_LENGTH {
            "10^8 radii, where the world's rounding slack no longer keeps the radius"
        } else {
            "the limit of every coordinate"
        };
        format!(
            "{what} reaches {} along axis {i}, farther than {} from 0 ({why})",
            poisson_nd::error::Short::of(&distance),
            poisson_nd::error::Short::of(&limit)
        )
    };
    match request {
        ChunkRequest::List(chunks) => {
            for c in chunks {
                if let Some(i) = (0..D).find(|&i| reach(i, c[i], c[i]) > limit) {
                    let what = format!("--chunks: chunk {}", join(c));
                    return Err(too_far(what, i, reach(i, c[i], c[i])));
                }
            }
        }
        ChunkRequest::Range { lo, hi } => {
            if let Some(i) = (0..D).find(|&i| reach(i, lo[i], hi[i] - 1) > limit) {
                let what = format!("--range {}:{}", join(lo), join(hi));
                return Err(too_far(what, i, reach(i, lo[i], hi[i] - 1)));
            }
        }
    }
    Ok(())
}

/// A chunk as it is written on the command line and in the file: `-3,7`.
fn join<const D: usize>(c: &[i64; D]) -> String {
    c.iter().map(i64::to_string).collect::<Vec<_>>().join(",")
}

/// Reads `--chunks`: chunks separated by `;`, each `D` integers separated by `,` (spaces
/// around either are allowed). Errors name the entry: an empty one, a wrong number of
/// coordinates, a coordinate that is not an integer or does not fit 64 bits, a chunk listed
/// twice.
///
/// ```
/// use experiments::world::parse_chunk_list;
/// assert_eq!(parse_chunk_list::<2>("0,0;1,0; -3,7")?, vec![[0, 0], [1, 0], [-3, 7]]);
/// assert!(parse_chunk_list::<2>("1,2;3").unwrap_err().contains("expected 2"));
/// assert!(parse_chunk_list::<2>("0,0;1,0;0,0").unwrap_err().contains("listed twice"));
/// # Ok::<(), String>(())
/// ```
pub fn parse_chunk_list<const D: usize>(text: &str) -> Result<Vec<[i64; D]>, String> {
    let mut chunks = Vec::new();
    let mut first_entry: HashMap<[i64; D], usize> = HashMap::new();
    for (index, entry) in text.split(';').enumerate() {
        let number = index + 1;
        let entry = entry.trim();
        if entry.is_empty() {
            return Err(format!("--chunks '{text}': entry {number} is empty"));
        }
        let c = parse_chunk::<D>(entry).map_err(|e| format!("--chunks: entry {number} {e}"))?;
        if let Some(first) = first_entry.insert(c, number) {
            return Err(format!(
                "--chunks: chunk {} is listed twice (entries {first} and {number}); list each \
                 chunk once",
                join(&c)
            ));
        }
        chunks.push(c);
    }
    Ok(chunks)
}

/// Reads `--range LO:HI`: two chunks (`D` integers each) separated by `:`, the block
/// `LO ≤ c < HI` on every axis. A block that is empty along some axis (`LO ≥ HI`) is an
/// error, since nothing would be written.
///
/// ```
/// use experiments::world::parse_range;
/// assert_eq!(parse_range::<2>("-4,-4:4,4")?, ([-4, -4], [4, 4]));
/// assert!(parse_range::<2>("-4,-4").unwrap_err().contains("LO:HI"));
/// assert!(parse_range::<2>("0,0:0,4").unwrap_err().contains("empty"));
/// # Ok::<(), String>(())
/// ```
pub fn parse_range<const D: usize>(text: &str) -> Result<([i64; D], [i64; D]), String> {
    let Some((lo, hi)) = text.split_once(':') else {
        return Err(format!(
            "--range '{text}': expected LO:HI, two chunks separated by ':' (e.g. -4,-4:4,4)"
        ));
    };
    let lo = parse_chunk::<D>(lo.trim()).map_err(|e| format!("--range: LO {e}"))?;
    let hi = parse_chunk::<D>(hi.trim()).map_err(|e| format!("--range: HI {e}"))?;
    if let Some(i) = (0..D).find(|&i| lo[i] >= hi[i]) {
        return Err(format!(
            "--range '{text}' is an empty range along axis {i} ({} ≥ {}; HI is excluded, as in \
             a Rust range)",
            lo[i], hi[i]
        ));
    }
    Ok((lo, hi))
}

/// One chunk: `D` integers separated by commas. The error follows the word naming the
/// chunk ("entry 2 …", "LO …").
fn parse_chunk<const D: usize>(text: &str) -> Result<[i64; D], String> {
    let fields: Vec<&str> = text.split(',').map(str::trim).collect();
    if fields.len() != D {
        let plural = if fields.len() == 1 { "" } else { "s" };
        return Err(format!(
            "'{text}' has {} coordinate{plural}, expected {D} (--dim {D})",
            fields.len()
        ));
    }
    let mut c = [0i64; D];
    for (slot, field) in c.iter_mut().zip(&fields) {
        *slot = field.parse().map_err(|e: std::num::ParseIntError| match e.kind() {
            IntErrorKind::Empty => format!("'{text}' has an empty coordinate"),
            IntErrorKind::PosOverflow | IntErrorKind::NegOverflow => {
                format!("'{text}': {field} does not fit a 64-bit integer")
            }
            _ => format!("'{text}': '{field}' is not an integer"),
        })?;
    }
    Ok(c)
}

/// The CSV of a run: the header `x0,…,x{D−1},c0,…,c{D−1}`, then one line per point, chunk by
/// chunk in the order given: the point in shortest round-trip form ([`exact`]), then its
/// chunk's integer coordinates.
///
/// ```
/// use experiments::world::encode_csv;
/// let csv = encode_csv(&[([-3, 7], vec![[-20.5, 60.25]]), ([0, 0], vec![])]);
/// assert_eq!(String::from_utf8(csv).unwrap(), "x0,x1,c0,c1\n-20.5,60.25,-3,7\n");
/// ```
pub fn encode_csv<const D: usize>(chunks: &[ChunkPoints<D>]) -> Vec<u8> {
    let mut header: Vec<String> = (0..D).map(|i| format!("x{i}")).collect();
    header.extend((0..D).map(|i| format!("c{i}")));
    let mut out = header.join(",");
    out.push('\n');
    for (c, points) in chunks {
        let chunk = join(c);
        for p in points {
            for x in p {
                out.push_str(&exact(*x));
                out.push(',');
            }
            out.push_str(&chunk);
            out.push('\n');
        }
    }
    out.into_bytes()
}
