//! `experiments world` through the binary: the rows are the library's chunks bit for bit, in
//! the order asked; a chunk's rows do not depend on what else a run asks for, so runs over
//! parts of a block write the rows of one run over the block; the radius holds across chunk
//! borders (and around a torus); every bad argument exits with code 2, one line, no file.

use poisson_nd::chunked::{ChunkPoints, World};
use poisson_nd::{Domain, Point};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Output;

fn world(args: &[&str]) -> Output {
    crate::experiments(&[&["world"], args].concat())
}

/// Runs `world` with `args` writing to `path`, checks it succeeded with one summary line,
/// and returns the file's text.
fn world_to(path: &Path, args: &[&str]) -> String {
    let mut all = args.to_vec();
    all.extend(["--out", path.to_str().unwrap()]);
    let output = world(&all);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{args:?}: {stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.starts_with("world D="), "{stderr}");
    std::fs::read_to_string(path).unwrap()
}

/// One row of a world CSV: the line as written, its point and its chunk.
#[derive(Debug, Clone)]
struct Row<const D: usize> {
    line: String,
    point: Point<D>,
    chunk: [i64; D],
}

/// The rows of a world CSV, after checking the header, the column count, that every float is
/// in shortest round-trip form and every chunk coordinate an integer.
fn rows<const D: usize>(text: &str) -> Vec<Row<D>> {
    assert!(text.ends_with('\n'));
    let mut lines = text.lines();
    let header: Vec<String> =
        (0..D).map(|i| format!("x{i}")).chain((0..D).map(|i| format!("c{i}"))).collect();
    assert_eq!(lines.next(), Some(header.join(",").as_str()));
    lines
        .map(|line| {
            let fields: Vec<&str> = line.split(',').collect();
            assert_eq!(fields.len(), 2 * D, "{line}");
            let point = std::array::from_fn(|i| {
                let x: f64 = fields[i].parse().unwrap();
                assert_eq!(format!("{x:?}"), fields[i], "{line}");
                x
            });
            let chunk = std::array::from_fn(|i| {
                fields[D + i].parse::<i64>().unwrap_or_else(|_| panic!("not an integer: {line}"))
            });
            Row { line: line.to_string(), point, chunk }
        })
        .collect()
}

/// The rows are the library's chunks, in order, with bit-identical coordinates.
fn assert_rows_are<const D: usize>(rows: &[Row<D>], expected: &[ChunkPoints<D>]) {
    let expected: Vec<(Point<D>, [i64; D])> =
        expected.iter().flat_map(|(c, points)| points.iter().map(move |p| (*p, *c))).collect();
    assert_eq!(rows.len(), expected.len());
    for (row, (p, c)) in rows.iter().zip(&expected) {
        assert_eq!(row.point.map(f64::to_bits), p.map(f64::to_bits), "{}", row.line);
        assert_eq!(row.chunk, *c, "{}", row.line);
    }
}

/// Every row's chunk column is the chunk its point lies in: `floor((x − origin) / side)`.
fn assert_chunk_columns<const D: usize>(rows: &[Row<D>], origin: [f64; D], side: [f64; D]) {
    for row in rows {
        let chunk: [i64; D] =
            std::array::from_fn(|i| ((row.point[i] - origin[i]) / side[i]).floor() as i64);
        assert_eq!(chunk, row.chunk, "{}", row.line);
    }
}

/// The smallest distance between two rows (with `across` only between rows of different
/// chunks), by checking every pair; distances wrap on a periodic `domain`.
fn closest<const D: usize>(rows: &[Row<D>], domain: Option<&Domain<D>>, across: bool) -> f64 {
    let mut best = f64::INFINITY;
    for (i, a) in rows.iter().enumerate() {
        for b in &rows[i + 1..] {
            if across && a.chunk == b.chunk {
                continue;
            }
            let d2 = match domain {
                Some(domain) => domain.distance_squared(&a.point, &b.point),
                None => a.point.iter().zip(&b.point).map(|(x, y)| (x - y) * (x - y)).sum(),
            };
            best = best.min(d2);
        }
    }
    best.sqrt()
}

/// The lines of each chunk, in file order.
fn lines_by_chunk<const D: usize>(rows: &[Row<D>]) -> BTreeMap<[i64; D], Vec<String>> {
    let mut out: BTreeMap<[i64; D], Vec<String>> = BTreeMap::new();
    for row in rows {
        out.entry(row.chunk).or_default().push(row.line.clone());
    }
    out
}

/// The lines of the rows as a sorted list (a multiset).
fn sorted_lines<const D: usize>(rows: &[Row<D>]) -> Vec<&str> {
    let mut lines: Vec<&str> = rows.iter().map(|row| row.line.as_str()).collect();
    lines.sort_unstable();
    lines
}

/// The chunks in the order the rows first name them.
fn chunk_order<const D: usize>(rows: &[Row<D>]) -> Vec<[i64; D]> {
    let mut order: Vec<[i64; D]> = Vec::new();
    for row in rows {
        if order.last() != Some(&row.chunk) {
            assert!(!order.contains(&row.chunk), "chunk {:?} is split", row.chunk);
            order.push(row.chunk);
        }
    }
    order
}

const ISSUE: [&str; 8] = ["--dim", "2", "--radius", "0.5", "--seed", "9", "--chunk-side", "8"];

fn issue_world() -> World<2> {
    World::<2>::builder(0.5, 9).with_chunk_side(8.0).build().unwrap()
}

fn args<'a>(base: &[&'a str], extra: &[&'a str]) -> Vec<&'a str> {
    base.iter().chain(extra).copied().collect()
}

#[test]
fn the_issue_commands_write_the_library_chunks() {
    let dir = tempfile::tempdir().unwrap();
    let listed = [[0, 0], [1, 0], [-3, 7]];
    let text = world_to(&dir.path().join("w.csv"), &args(&ISSUE, &["--chunks", "0,0;1,0;-3,7"]));
    let w = rows::<2>(&text);
    // Each chunk as a fresh world gives it alone.
    let expected: Vec<ChunkPoints<2>> =
        listed.iter().map(|&c| (c, issue_world().chunk(c).unwrap())).collect();
    assert!(expected.iter().all(|(_, points)| points.len() > 100));
    assert_rows_are(&w, &expected);
    assert_eq!(chunk_order(&w), listed);
    assert_chunk_columns(&w, [0.0; 2], [8.0; 2]);
    assert!(text.lines().nth(1).unwrap().ends_with(",0,0"));
    assert!(text.lines().last().unwrap().ends_with(",-3,7"));

    let text = world_to(&dir.path().join("block.csv"), &args(&ISSUE, &["--range", "-4,-4:4,4"]));
    let block = rows::<2>(&text);
    let expected = issue_world().range([-4, -4], [4, 4]).unwrap();
    assert_eq!(expected.len(), 64);
    assert_rows_are(&block, &expected);
    let lexicographic: Vec<[i64; 2]> = (-4..4).flat_map(|a| (-4..4).map(move |b| [a, b])).collect();
    assert_eq!(chunk_order(&block), lexicographic);
    assert_chunk_columns(&block, [0.0; 2], [8.0; 2]);
}

#[test]
fn a_chunk_has_the_same_rows_in_any_order_alone_or_in_a_block() {
    let dir = tempfile::tempdir().unwrap();
    let run = |name: &str, extra: &[&str]| {
        lines_by_chunk(&rows::<2>(&world_to(&dir.path().join(name), &args(&ISSUE, extra))))
    };
    let given = run("given.csv", &["--chunks", "0,0;1,0;-3,7"]);
    let permuted = run("permuted.csv", &["--chunks", "-3,7;1,0;0,0"]);
    let block = run("block.csv", &["--range", "-4,-4:4,4"]);
    assert_eq!(given, permuted);
    for c in [[0, 0], [1, 0], [-3, 7]] {
        let alone = run("alone.csv", &["--chunks", &format!("{},{}", c[0], c[1])]);
        assert_eq!(alone.len(), 1);
        assert_eq!(alone[&c], given[&c], "{c:?}");
    }
    for c in [[0, 0], [1, 0]] {
        assert_eq!(block[&c], given[&c], "{c:?}");
    }
}

#[test]
fn a_block_keeps_the_radius_across_chunk_borders() {
    let dir = tempfile::tempdir().unwrap();
    let text = world_to(&dir.path().join("block.csv"), &args(&ISSUE, &["--range", "-4,-4:4,4"]));
    let block = rows::<2>(&text);
    assert!(block.len() > 5000, "{}", block.len());
    let r = 0.5;
    assert!(closest(&block, None, false) >= r * (1.0 - 1e-12));
    // Pairs across borders come as close as the radius allows: the seams are filled.
    let across = closest(&block, None, true);
    assert!(across >= r * (1.0 - 1e-12) && across < 1.1 * r, "{across}");
}

#[test]
fn one_three_five_and_eight_dimensions() {
    let dir = tempfile::tempdir().unwrap();

    // 1D: the default chunk side, 64 radii.
    let line = rows::<1>(&world_to(
        &dir.path().join("d1.csv"),
        &["--dim", "1", "--radius", "0.1", "--seed", "5", "--range", "-3:3"],
    ));
    let expected = World::<1>::builder(0.1, 5).build().unwrap().range([-3], [3]).unwrap();
    assert_rows_are(&line, &expected);
    assert_chunk_columns(&line, [0.0], [6.4]);
    assert!(line.len() > 100 && closest(&line, None, false) >= 0.1 * (1.0 - 1e-12));

    // 3D: two neighbouring chunks and one apart, with fewer attempts.
    let space = rows::<3>(&world_to(
        &dir.path().join("d3.csv"),
        &[
            "--dim",
            "3",
            "--radius",
            "0.5",
            "--seed",
            "11",
            "--k",
            "20",
            "--chunk-side",
            "4",
            "--chunks",
            "0,0,0;0,0,1;-1,2,0",
        ],
    ));
    let chunks = [[0, 0, 0], [0, 0, 1], [-1, 2, 0]];
    let make = || World::<3>::builder(0.5, 11).with_attempts(20).with_chunk_side(4.0);
    let expected: Vec<ChunkPoints<3>> =
        chunks.iter().map(|&c| (c, make().build().unwrap().chunk(c).unwrap())).collect();
    assert_rows_are(&space, &expected);
    assert_chunk_columns(&space, [0.0; 3], [4.0; 3]);
    assert!(space.len() > 300 && closest(&space, None, false) >= 0.5 * (1.0 - 1e-12));

    // 5D: a closed box one chunk and a half long along axis 0 keeps the points few; the
    // chunk side 4 is just above the smallest allowed, (2 + 4√2)·0.5 ≈ 3.83.
    let hyper = rows::<5>(&world_to(
        &dir.path().join("d5.csv"),
        &[
            "--dim",
            "5",
            "--radius",
            "0.5",
            "--seed",
            "2",
            "--chunk-side",
            "4",
            "--box",
            "6,1.2,1.2,1.2,1.2",
            "--origin",
            "-1,-1,-1,-1,-1",
            "--chunks",
            "1,0,0,0,0;0,0,0,0,0;-1,0,0,0,0",
        ],
    ));
    let domain = Domain::<5>::from_origin_and_extent([-1.0; 5], [6.0, 1.2, 1.2, 1.2, 1.2]).unwrap();
    let make = || World::<5>::builder(0.5, 2).with_chunk_side(4.0).with_box(domain);
    let chunks = [[1, 0, 0, 0, 0], [0; 5], [-1, 0, 0, 0, 0]];
    let expected: Vec<ChunkPoints<5>> =
        chunks.iter().map(|&c| (c, make().build().unwrap().chunk(c).unwrap())).collect();
    assert!(expected[2].1.is_empty(), "chunk -1 lies outside the box");
    assert_rows_are(&hyper, &expected);
    assert_chunk_columns(&hyper, [-1.0; 5], [4.0; 5]);
    assert!(hyper.iter().all(|row| domain.contains(&row.point)));
    assert!(hyper.len() > 50 && closest(&hyper, None, false) >= 0.5 * (1.0 - 1e-12));
    assert!(closest(&hyper, None, true) < 1.2 * 0.5);

    // 8D goes through the same dispatch and checks; a chunk takes minutes even in a small
    // box (5^8 cells around it; see the README), so the 8D run here is the smallest-side
    // check, which must name (2 + 7√2)·0.5 ≈ 5.9497.
    let eight = ["0"; 8].join(",");
    let output =
        world(&["--dim", "8", "--radius", "0.5", "--chunk-side", "5.9", "--chunks", &eight]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    let min = (2.0 + 7.0 * 2f64.sqrt()) * 0.5;
    assert!(stderr.contains("in 8D: it must be at least 5.949"), "{stderr}");
    assert!((min - 5.9497).abs() < 1e-4);
    let output = world(&["--dim", "8", "--radius", "0.5", "--chunks", "0,0,0,0,0,0,0"]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("has 7 coordinates, expected 8 (--dim 8)"), "{stderr}");
}

#[test]
fn a_torus_world_wraps_and_a_closed_box_keeps_inside() {
    let dir = tempfile::tempdir().unwrap();
    let torus_flags = ["--periodic", "--box", "16,16", "--chunk-side", "8"];
    let text = world_to(
        &dir.path().join("torus.csv"),
        &args(&args(&ISSUE[..6], &torus_flags), &["--range", "0,0:2,2"]),
    );
    let torus = rows::<2>(&text);
    let domain = Domain::<2>::from_origin_and_extent([0.0; 2], [16.0; 2]).unwrap().periodic();
    let expected = World::<2>::builder(0.5, 9)
        .with_box(domain)
        .with_chunk_side(8.0)
        .build()
        .unwrap()
        .range([0, 0], [2, 2])
        .unwrap();
    assert_rows_are(&torus, &expected);
    assert_chunk_columns(&torus, [0.0; 2], [8.0; 2]);
    assert!(torus.iter().all(|row| domain.contains(&row.point)));
    assert!(closest(&torus, Some(&domain), false) >= 0.5 * (1.0 - 1e-12));
    // Across the seam, points come as close as they do inside: the torus is filled.
    let seam: Vec<Row<2>> = torus.iter().filter(|row| row.point[0] > 15.0).cloned().collect();
    let first: Vec<Row<2>> = torus.iter().filter(|row| row.point[0] < 1.0).cloned().collect();
    let joined = [seam, first].concat();
    assert!(closest(&joined, Some(&domain), true) < 1.1 * 0.5);

    let outside = dir.path().join("outside.csv");
    let output = world(&args(
        &args(&ISSUE[..6], &torus_flags),
        &["--chunks", "0,0;2,0", "--out", outside.to_str().unwrap()],
    ));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("chunk [2, 0] lies outside the torus of [2, 2] chunks"), "{stderr}");
    assert!(!outside.exists());

    // A closed box at a negative origin: the chunks start at its corner, points stay inside.
    let text = world_to(
        &dir.path().join("closed.csv"),
        &args(
            &ISSUE[..6],
            &["--box", "10,12", "--origin", "-3,-2", "--chunk-side", "4", "--range", "-1,-1:4,4"],
        ),
    );
    let closed = rows::<2>(&text);
    let domain = Domain::<2>::from_origin_and_extent([-3.0, -2.0], [10.0, 12.0]).unwrap();
    let mut library =
        World::<2>::builder(0.5, 9).with_box(domain).with_chunk_side(4.0).build().unwrap();
    assert_rows_are(&closed, &library.range([-1, -1], [4, 4]).unwrap());
    assert_chunk_columns(&closed, [-3.0, -2.0], [4.0; 2]);
    assert!(closed.len() > 100 && closed.iter().all(|row| domain.contains(&row.point)));
    assert!(closest(&closed, None, false) >= 0.5 * (1.0 - 1e-12));

    // --origin alone moves the chunk lattice of an unbounded world.
    let text = world_to(
        &dir.path().join("moved.csv"),
        &args(&ISSUE, &["--origin", "0.5,-1.25", "--chunks", "0,0;-1,0"]),
    );
    let moved = rows::<2>(&text);
    let make = || World::<2>::builder(0.5, 9).with_chunk_side(8.0).with_origin([0.5, -1.25]);
    let expected: Vec<ChunkPoints<2>> =
        [[0, 0], [-1, 0]].iter().map(|&c| (c, make().build().unwrap().chunk(c).unwrap())).collect();
    assert_rows_are(&moved, &expected);
    assert_chunk_columns(&moved, [0.5, -1.25], [8.0; 2]);
}

#[test]
fn four_quadrant_processes_equal_one_block() {
    let dir = tempfile::tempdir().unwrap();
    let block = rows::<2>(&world_to(
        &dir.path().join("block.csv"),
        &args(&ISSUE, &["--range", "-4,-4:4,4"]),
    ));
    let mut parts: Vec<Row<2>> = Vec::new();
    for (i, quadrant) in ["-4,-4:0,0", "-4,0:0,4", "0,-4:4,0", "0,0:4,4"].iter().enumerate() {
        let path = dir.path().join(format!("quadrant-{i}.csv"));
        let part = rows::<2>(&world_to(&path, &args(&ISSUE, &["--range", quadrant])));
        assert!(!part.is_empty());
        parts.extend(part);
    }
    assert_eq!(parts.len(), block.len());
    assert_eq!(sorted_lines(&parts), sorted_lines(&block));
    assert_eq!(lines_by_chunk(&parts), lines_by_chunk(&block));
}

#[test]
fn standard_output_and_no_output() {
    let dir = tempfile::tempdir().unwrap();
    let file = world_to(&dir.path().join("w.csv"), &args(&ISSUE, &["--chunks", "0,0;-3,7"]));
    let output = world(&args(&ISSUE, &["--chunks", "0,0;-3,7", "--out", "-"]));
    assert!(output.status.success());
    assert_eq!(String::from_utf8(output.stdout).unwrap(), file);
    let summary = String::from_utf8_lossy(&output.stderr);
    let points = file.lines().count() - 1;
    let start = format!("world D=2 chunks=2 points={points} cells_decided=");
    assert!(summary.starts_with(&start), "{summary}");
    assert!(summary.trim_end().ends_with('s'), "{summary}");
    // Without --out only the summary is printed.
    let quiet = world(&args(&ISSUE, &["--chunks", "0,0"]));
    assert!(quiet.status.success());
    assert!(quiet.stdout.is_empty());
    assert_eq!(String::from_utf8_lossy(&quiet.stderr).lines().count(), 1);
}

#[test]
fn help_names_the_chunk_limit() {
    let output = world(&["--help"]);
    assert!(output.status.success());
    let help = String::from_utf8_lossy(&output.stdout);
    assert!(help.contains("--max-chunks") && help.contains("[default: 4096]"), "{help}");
    assert!(help.contains("--chunks") && help.contains("--range"), "{help}");
}

#[test]
fn bad_arguments_exit_2_with_one_line_and_write_nothing() {
    let cases: &[(&str, &str)] = &[
        (
            "--radius 0.5 --chunk-side 1.5 --chunks 0,0",
            "--chunk-side: the chunk side 1.5 is too small",
        ),
        ("--radius 0.5 --chunk-side nan --chunks 0,0", "must be at least"),
        (
            "--radius 0.5 --chunk-side 1e300 --chunks 0,0",
            "--chunk-side: the chunk side must be between 1e-100 and 1e100, got 1e300",
        ),
        ("--radius 0.5 --chunks 1,2;3", "entry 2 '3' has 1 coordinate, expected 2 (--dim 2)"),
        ("--radius 0.5 --chunks 1,2,3", "entry 1 '1,2,3' has 3 coordinates, expected 2"),
        ("--radius 0.5 --chunks a,b", "entry 1 'a,b': 'a' is not an integer"),
        ("--radius 0.5 --chunks 0.5,0", "'0.5' is not an integer"),
        ("--radius 0.5 --chunks 0,0;;1,0", "entry 2 is empty"),
        ("--radius 0.5 --chunks 0,0;", "entry 2 is empty"),
        ("--radius 0.5 --chunks 1,", "'1,' has an empty coordinate"),
        ("--radius 0.5 --chunks 99999999999999999999,0", "does not fit a 64-bit integer"),
        ("--radius 0.5 --chunks 0,0;1,0;0,0", "chunk 0,0 is listed twice (entries 1 and 3)"),
        ("--radius 0.5 --range -4,-4", "expected LO:HI"),
        ("--radius 0.5 --range -4:4", "LO '-4' has 1 coordinate, expected 2"),
        ("--radius 0.5 --range 0,0:1,x", "HI '1,x': 'x' is not an integer"),
        ("--radius 0.5 --range 0,0:1,2:3", "'2:3' is not an integer"),
        ("--radius 0.5 --range 0,0:0,4", "empty range along axis 0 (0 ≥ 0"),
        ("--radius 0.5 --range 0,3:2,1", "empty range along axis 1 (3 ≥ 1"),
        (
            "--radius 0.5 --range -100,-100:100,100",
            "--range covers 40000 chunks, more than --max-chunks 4096",
        ),
        (
            "--radius 0.5 --max-chunks 2 --chunks 0,0;1,0;2,0",
            "--chunks lists 3 chunks, more than --max-chunks 2",
        ),
        ("--radius 0.5 --max-chunks 0 --chunks 0,0", "--max-chunks"),
        ("--radius 0 --chunks 0,0", "radius must be finite and > 0, got 0"),
        ("--radius -1 --chunks 0,0", "radius must be finite and > 0, got -1"),
        ("--radius nan --chunks 0,0", "radius must be finite and > 0, got NaN"),
        ("--radius abc --chunks 0,0", "invalid value 'abc'"),
        (
            "--radius 1e-4 --chunk-side 8 --chunks 0,0",
            "in one chunk, over the limit of 100000000 points; use a larger --radius, a smaller \
             --chunk-side, or raise --max-points",
        ),
        ("--radius 0.5 --max-points 10 --chunks 0,0", "over the limit of 10 points"),
        ("--radius 0.5 --max-points 0 --chunks 0,0", "--max-points must be at least 1, got 0"),
        ("--radius 1e300 --chunks 0,0", "the radius must be between 1e-100 and 1e100, got 1e300"),
        ("--radius 1e-300 --chunks 0,0", "the radius must be between 1e-100 and 1e100, got 1e-300"),
        (
            "--radius 0.5 --chunk-side 8 --periodic --box 16,16 --chunks 2,0",
            "chunk [2, 0] lies outside the torus of [2, 2] chunks",
        ),
        (
            "--radius 0.5 --chunk-side 8 --periodic --box 16,16 --range -1,0:1,1",
            "chunk [-1, 0] lies outside the torus",
        ),
        (
            "--radius 0.5 --chunk-side 7 --periodic --box 16,16 --chunks 0,0",
            "tiled by at least two whole chunks",
        ),
        ("--radius 0.5 --periodic --box 16,16 --chunks 0,0", "chunk side is 32"),
        ("--radius 0.5 --periodic --chunks 0,0", "--periodic needs --box"),
        ("--radius 0.5 --box 1,1,1 --chunks 0,0", "box has 3 values but the dimension is 2"),
        ("--radius 0.5 --box 1,-1 --chunks 0,0", "box side"),
        ("--radius 0.5 --origin 1 --chunks 0,0", "origin has 1 values but the dimension is 2"),
        ("--radius 0.5 --origin nan,0 --chunks 0,0", "origin coordinate 0 must be finite"),
        ("--radius 0.5 --k 0 --chunks 0,0", "--k must be at least 1, got 0"),
        ("--radius 0.5 --chunks 0,0 --range 0,0:1,1", "cannot be used with"),
        ("--radius 0.5", "--chunks"),
        ("--chunks 0,0", "--radius"),
        ("--dim 9 --radius 0.5 --chunks 0,0", "--dim must be between 1 and 8, got 9"),
        ("--dim 0 --radius 0.5 --chunks 0,0", "--dim must be between 1 and 8, got 0"),
        ("--radius 0.5 --chunks 10000000000,0", "farther than 50000000 from 0 (10^8 radii"),
        (
            "--radius 1e98 --chunks 100,0",
            "farther than 1e100 from 0 (the limit of every coordinate)",
        ),
        ("--radius 0.5 --range 0,10000000000:1,10000000001", "(10^8 radii"),
        ("--radius 0.5 --chunks 0,0 --seed x", "invalid value 'x'"),
        (
            "--radius 0.5 --chunks 0,0 --k 4294967295",
            "--k must be at most 100000000, got 4294967295",
        ),
    ];
    for (extra, expected) in cases {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("never.csv");
        let mut all = vec!["--out", path.to_str().unwrap()];
        all.extend(extra.split_whitespace());
        let output = world(&all);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{extra}: {stderr}");
        assert_eq!(stderr.trim_end().lines().count(), 1, "{extra}: {stderr}");
        assert!(stderr.contains(expected), "{extra}: {stderr}");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0, "{extra} wrote a file");
    }
    // Outputs: not CSV, a folder that does not exist.
    let dir = tempfile::tempdir().unwrap();
    let outputs: [(PathBuf, &str); 2] = [
        (dir.path().join("w.npy"), "world writes CSV only"),
        (dir.path().join("missing").join("w.csv"), "cannot write"),
    ];
    for (path, expected) in outputs {
        let output = world(&args(&ISSUE, &["--chunks", "0,0", "--out", path.to_str().unwrap()]));
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{stderr}");
        assert_eq!(stderr.trim_end().lines().count(), 1, "{stderr}");
        assert!(stderr.contains(expected) && stderr.contains("w."), "{stderr}");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0, "{stderr}");
    }
}
