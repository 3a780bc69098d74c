//! The report end to end: the quick run writes every file, figures are well-formed SVG with
//! the expected series, results.csv is tidy and reproducible from the written config, and bad
//! configurations are rejected with errors that name the key.

use crate::experiments;
use experiments::analyze::AnalyzeIn;
use experiments::config::Config;
use experiments::dims::Dim;
use experiments::metrics::{Histogram, Periodogram};
use experiments::plot::scatter::VECTOR_DOTS_UP_TO;
use experiments::plot::{colour_hex, histogram::EXPECTED_COLOUR, sampler_colour};
use experiments::report::analysis::{
    AnalysisContext, Analyzer, ChartContext, ChartSpec, Curve, Measurements, StandardAnalyzer,
};
use experiments::report::{
    ReportData, chunked, generated, regions, surfaces, variable_density, write_report,
};
use experiments::spec::SamplerSpec;
use poisson_nd::PointSet;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn temp_dir(tag: &str) -> tempfile::TempDir {
    tempfile::Builder::new().prefix(&format!("poisson-nd-report-{tag}-")).tempdir().unwrap()
}

/// A text file; a figure's data file (`.csv.gz`) decompressed.
/// Whether the sampler called `name` samples `dim` dimensions (PMJ02, FPO and Lloyd are
/// planar: they sit out 3D), from the specification's capabilities.
fn runs_in(name: &str, dim: usize) -> bool {
    let spec = SamplerSpec::all_defaults().into_iter().find(|s| s.name() == name);
    spec.is_none_or(|s| s.capabilities().takes_dimension(dim))
}

fn read(path: &Path) -> String {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    if path.extension().is_some_and(|e| e == "gz") {
        use std::io::Read;
        let mut text = String::new();
        flate2::read::GzDecoder::new(bytes.as_slice())
            .read_to_string(&mut text)
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        text
    } else {
        String::from_utf8(bytes).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
    }
}

/// Every SVG under `figures/` parses as XML and appears inline in index.html, and every CSV
/// there is linked from the page and is rectangular; returns the SVG file names and texts.
fn check_figures(out: &Path) -> Vec<(String, String)> {
    let html = read(&out.join("index.html"));
    let mut figures = Vec::new();
    let mut files: Vec<PathBuf> =
        std::fs::read_dir(out.join("figures")).unwrap().map(|e| e.unwrap().path()).collect();
    files.sort();
    assert!(!files.is_empty());
    for path in files {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let text = read(&path);
        if let Some(stem) = name.strip_suffix(".csv.gz") {
            assert!(html.contains(&format!("href=\"figures/{name}\"")), "{name} not linked");
            let columns = text.lines().next().unwrap().split(',').count();
            assert!(text.lines().count() > 1, "{name} has no rows");
            assert!(text.lines().all(|l| l.split(',').count() == columns), "{name} is ragged");
            assert!(!stem.is_empty());
            continue;
        }
        assert!(name.ends_with(".svg"), "{name}");
        assert_eq!(parse(&name, &text).root_element().tag_name().name(), "svg", "{name}");
        assert!(html.contains(&format!("<figure id=\"{name}\">")), "{name} not in index.html");
        assert!(html.contains(text.trim()), "{name} is not inlined verbatim");
        figures.push((name, text));
    }
    figures
}

/// Checks that a point figure draws every one of `points` (in the box `lo..hi`): as circles
/// up to [`VECTOR_DOTS_UP_TO`], else as the dot raster (the last `<image>`), whose pixel under
/// every point is coloured. `other_images` counts the figure's other rasters (a background).
fn check_dots(
    name: &str,
    svg: &str,
    points: &[[f64; 2]],
    (lo, hi): ([f64; 2], [f64; 2]),
    other_images: usize,
) {
    let doc = parse(name, svg);
    let circles = doc.descendants().filter(|n| n.has_tag_name("circle")).count();
    let images: Vec<_> = doc.descendants().filter(|n| n.has_tag_name("image")).collect();
    if points.len() <= VECTOR_DOTS_UP_TO {
        assert_eq!((circles, images.len()), (points.len(), other_images), "{name}");
        return;
    }
    assert_eq!((circles, images.len()), (0, other_images + 1), "{name}");
    let layer = images.last().unwrap();
    let href = layer.attribute("href").unwrap();
    let bytes = decode_base64(href.strip_prefix("data:image/png;base64,").unwrap());
    let (width, height, raster) = crate::pictures::rgba8(&bytes);
    let (w, h) = (f64::from(width), f64::from(height));
    for p in points {
        let x = ((p[0] - lo[0]) / (hi[0] - lo[0]) * w).floor().min(w - 1.0) as u32;
        let y = ((hi[1] - p[1]) / (hi[1] - lo[1]) * h).floor().min(h - 1.0) as u32;
        assert!(raster[(y * width + x) as usize][3] > 0, "{name}: no dot under {p:?}");
    }
}

fn decode_base64(text: &str) -> Vec<u8> {
    let value = |c: u8| match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        _ => 63,
    };
    let digits: Vec<u8> = text.bytes().filter(|&c| c != b'=').map(value).collect();
    let mut out = Vec::new();
    for group in digits.chunks(4) {
        let n =
            group.iter().enumerate().fold(0u32, |n, (i, &d)| n | (u32::from(d) << (18 - 6 * i)));
        out.extend_from_slice(&n.to_be_bytes()[1..group.len()]);
    }
    out
}

fn parse<'a>(name: &str, text: &'a str) -> roxmltree::Document<'a> {
    roxmltree::Document::parse(text).unwrap_or_else(|e| panic!("{name} is not XML: {e}"))
}

/// Elements named `tag` whose `stroke` (or `fill`) is the sampler's colour.
fn count_coloured(
    doc: &roxmltree::Document<'_>,
    tag: &str,
    attribute: &str,
    colour: &str,
) -> usize {
    doc.descendants()
        .filter(|n| n.tag_name().name() == tag && n.attribute(attribute) == Some(colour))
        .count()
}

/// Elements named `tag` with the sampler's colour as `attribute`, in the figure `name`.
fn coloured(
    figures: &[(String, String)],
    name: &str,
    tag: &str,
    attribute: &str,
    sampler: &str,
) -> usize {
    let text = &figures.iter().find(|(n, _)| n == name).unwrap_or_else(|| panic!("no {name}")).1;
    count_coloured(&parse(name, text), tag, attribute, &colour_hex(sampler_colour(sampler)))
}

#[test]
fn quick_report_writes_every_file_with_the_expected_content() {
    let dir = temp_dir("quick");
    let config = Config::quick_config().unwrap();
    let outcome = write_report(&config, dir.path(), &StandardAnalyzer, false).unwrap();
    for file in ["index.html", "results.csv", "timings.csv", "config.toml"] {
        assert!(dir.path().join(file).is_file(), "{file} missing");
    }
    let html = read(&dir.path().join("index.html"));
    assert!(!html.contains("<script") && !html.contains(" src=") && !html.contains("https://"));
    for needle in [
        "Environment",
        "CPU",
        "logical cores",
        "UTC",
        "[[samplers]]",
        "Comparison in 2D",
        "Comparison in 3D",
        "Point sets",
        "Nearest-neighbour distances",
        "Cluster rate and relative radius",
        "Power spectra",
        "Pair correlation",
        "Scaling",
        "Metrics",
        "mean ± standard error",
        "Variable density",
        "Regions",
        "Pair rule max(rᵢ, rⱼ)",
        "Points in the regions",
        "On surfaces",
        "Points on the displaced sphere",
        "Chunked Bridson against Bridson",
        "The periodogram at the chunk frequency",
        "bridson-recent is Bridson&#39;s algorithm with each step around one of the 16",
    ] {
        assert!(html.contains(needle), "index.html lacks {needle}");
    }

    let samplers: Vec<&str> = config.samplers.iter().map(|s| s.name()).collect();
    assert_eq!(
        samplers.len(),
        experiments::catalogue::names().len(),
        "the quick run compares every sampler"
    );
    let figures = check_figures(dir.path());
    let names: BTreeSet<&str> = figures.iter().map(|(n, _)| n.as_str()).collect();
    let mut expected: Vec<String> = Vec::new();
    for d in [2, 3] {
        for kind in ["nn-histogram", "spectrum", "pair-correlation", "l-minus-r", "j-function"] {
            expected.push(format!("{d}d-{kind}.svg"));
        }
        for metric in ["cluster_rate", "relative_radius"] {
            expected.push(format!("{d}d-metric-{metric}.svg"));
        }
        // The planar samplers (PMJ02, FPO, Lloyd) sit out 3D.
        for sampler in samplers.iter().filter(|s| runs_in(s, d)) {
            expected.push(format!("{d}d-points-{sampler}.svg"));
        }
    }
    for sampler in &samplers {
        expected.push(format!("2d-periodogram-{sampler}.svg"));
    }
    expected.extend(["scaling.svg".to_string(), "scaling-attempts.svg".to_string()]);
    expected.extend(
        [
            "density-points-bridson.svg",
            "density-points-dart-throwing-grid.svg",
            "density-strips.svg",
            "regions-polygon-bridson.svg",
            "regions-polygon-halton.svg",
            "regions-torus-bridson.svg",
            "surfaces-fill.svg",
            "surfaces-fill-fronts.svg",
            "surfaces-fill-boundary.svg",
            "surfaces-elimination.svg",
            "surfaces-uniform.svg",
            "chunked-spectrum.svg",
            "chunked-axis-periodogram.svg",
        ]
        .map(String::from),
    );
    for name in &expected {
        assert!(names.contains(name.as_str()), "{name} missing");
    }
    assert_eq!(names.len(), expected.len(), "unexpected figures: {names:?}");

    for sampler in &samplers {
        // The planar samplers sit out 3D.
        for d in [2, 3].into_iter().filter(|&d| runs_in(sampler, d)) {
            // One curve and one legend swatch per sampler.
            for chart in ["spectrum", "pair-correlation", "l-minus-r", "j-function"] {
                let name = format!("{d}d-{chart}.svg");
                assert_eq!(coloured(&figures, &name, "polyline", "stroke", sampler), 2, "{name}");
            }
            for metric in ["cluster_rate", "relative_radius"] {
                let name = format!("{d}d-metric-{metric}.svg");
                assert_eq!(coloured(&figures, &name, "circle", "fill", sampler), 1, "{name}");
            }
            // The histogram's bars are rectangles in the sampler's colour (mixed, so only
            // their presence is checked via the panel title).
            let histogram = &figures.iter().find(|(n, _)| *n == format!("{d}d-nn-histogram.svg"));
            assert!(histogram.unwrap().1.contains(&format!(">\n{sampler}\n<")), "{sampler}");
        }
        let periodogram =
            &figures.iter().find(|(n, _)| *n == format!("2d-periodogram-{sampler}.svg")).unwrap().1;
        assert_eq!(
            parse(sampler, periodogram).descendants().filter(|n| n.has_tag_name("image")).count(),
            1
        );
    }
    for d in [2, 3] {
        // A white-noise curve per panel and one legend swatch.
        let name = format!("{d}d-nn-histogram.svg");
        let text = &figures.iter().find(|(n, _)| *n == name).unwrap().1;
        let curve = colour_hex(EXPECTED_COLOUR);
        let panels = samplers.iter().filter(|s| runs_in(s, d)).count();
        assert_eq!(count_coloured(&parse(&name, text), "polyline", "stroke", &curve), panels + 1);
    }
    // Scaling: dots and a fitted line (plus the legend swatch) per sampler; the attempts
    // chart for the radius-driven ones.
    let scaling = config.scaling.as_ref().unwrap();
    for sampler in &scaling.samplers {
        assert_eq!(
            coloured(&figures, "scaling.svg", "polyline", "stroke", sampler),
            2,
            "{sampler}"
        );
        let dots = coloured(&figures, "scaling.svg", "circle", "fill", sampler);
        assert_eq!(dots, scaling.counts_for(sampler).len() * scaling.reps, "{sampler}");
        let attempts = coloured(&figures, "scaling-attempts.svg", "polyline", "stroke", sampler);
        let index = config.sampler_index(sampler).unwrap();
        let radius_driven = config.samplers[index].is_radius_driven();
        assert_eq!(attempts, if radius_driven { 2 } else { 0 }, "{sampler}");
    }
    // The dart-throwing cap: fewer runs than the others.
    assert!(scaling.counts_for("dart-throwing").len() < scaling.counts().len());

    let dim2 = &outcome.data.dims[0];
    for sampler in &dim2.samplers {
        // Every point of the first realisation is drawn (the quick sets fit in one view), as
        // circles in the sampler's colour or as the dot raster; the CSV beside it holds every
        // point.
        let name = format!("2d-points-{}.svg", sampler.name);
        let points: Vec<[f64; 2]> = sampler.first_points.iter().map(|p| [p[0], p[1]]).collect();
        let svg = &figures.iter().find(|(n, _)| *n == name).unwrap().1;
        check_dots(&name, svg, &points, ([0.0; 2], [1.0; 2]), 0);
        if points.len() <= VECTOR_DOTS_UP_TO {
            let circles = coloured(&figures, &name, "circle", "fill", &sampler.name);
            assert_eq!(circles, points.len(), "{name}");
        }
        let csv = read(&dir.path().join(format!("figures/2d-points-{}.csv.gz", sampler.name)));
        assert_eq!(csv.lines().count(), sampler.first_points.len() + 1);
        assert!(csv.starts_with("x0,x1\n"));
    }
    // The data behind the curve charts: rows for every sampler.
    for (file, header) in [
        ("2d-spectrum.csv.gz", "sampler,frequency,power"),
        ("3d-pair-correlation.csv.gz", "sampler,distance_over_r,g"),
        ("2d-nn-histogram.csv.gz", "sampler,bin_lower,bin_upper,density"),
        ("2d-nn-white-noise.csv.gz", "sampler,distance_over_r,density"),
        ("2d-metric-cluster_rate.csv.gz", "sampler,mean,std_error,realisations,reference"),
        ("2d-l-minus-r.csv.gz", "sampler,distance_over_r,l_minus_r_over_r"),
        ("3d-j-function.csv.gz", "sampler,distance_over_r,j"),
        ("scaling.csv.gz", "sampler,dim,target,n,rep,seed,attempts,seconds"),
        ("scaling-fits.csv.gz", "sampler,quantity,exponent,prefactor,r_squared,runs"),
    ] {
        let text = read(&dir.path().join("figures").join(file));
        assert!(text.starts_with(&format!("{header}\n")), "{file}");
        for sampler in &samplers {
            let listed = text.lines().any(|l| l.starts_with(&format!("{sampler},")));
            let expected = if file.starts_with("scaling") {
                scaling.samplers.iter().any(|s| s == sampler)
            } else {
                !file.starts_with("3d") || runs_in(sampler, 3)
            };
            assert_eq!(listed, expected, "{file}: {sampler}");
        }
    }

    // The spatial statistics: the white-noise envelope is drawn and named with its count of
    // simulations, and the white-noise sampler's L(r) − r (a mean over realisations) stays
    // inside it at nearly every r, while a Poisson-disk set's dips far below it at r.
    for dim in &outcome.data.dims {
        let d = dim.dim;
        let envelope = dim.envelope.as_ref().expect("an envelope");
        assert_eq!(envelope.simulations, 39);
        let svg = &figures.iter().find(|(n, _)| *n == format!("{d}d-l-minus-r.svg")).unwrap().1;
        assert!(svg.contains("white noise, 39 simulations"), "{d}D");
        assert!(svg.contains("<polygon"), "{d}D: no band");
        let curve = |name: &str| {
            dim.samplers.iter().find(|s| s.name == name).unwrap().l_minus_r.clone().unwrap()
        };
        let white = curve("white-noise");
        let (lower, upper) = (&envelope.l_minus_r.lower, &envelope.l_minus_r.upper);
        let inside = white
            .points
            .iter()
            .zip(lower.iter().zip(upper))
            .filter(|(p, (lo, hi))| p.0 == lo.0 && lo.1 - 1e-12 <= p.1 && p.1 <= hi.1 + 1e-12)
            .count();
        assert!(inside * 10 >= white.points.len() * 9, "{d}D: {inside} of {}", white.points.len());
        let bridson = curve("bridson");
        let at_r = bridson.points.iter().rfind(|p| p.0 <= 1.0).unwrap();
        let bound = lower.iter().find(|p| p.0 == at_r.0).unwrap().1;
        assert!(at_r.1 < bound - 0.3, "{d}D: bridson {at_r:?} against the envelope's {bound}");
    }
    let envelope = read(&dir.path().join("figures/2d-l-minus-r-envelope.csv.gz"));
    assert!(envelope.starts_with("distance_over_r,lower,upper\n"));

    // Each dimension opens with the ranking, the literature's ρ_rel beside the measured one.
    let page = read(&dir.path().join("index.html"));
    assert!(page.contains("Ranking in 2D") && page.contains("Ranking in 3D"));
    assert!(page.contains("published ρ_rel") && page.contains("(saturated RSA)"));

    // A row per sampler × dimension × realisation × metric.
    let csv = read(&dir.path().join("results.csv"));
    let mut lines = csv.lines();
    assert_eq!(lines.next(), Some("sampler,dim,n,rep,seed,metric,value"));
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    let metrics: BTreeSet<&str> = rows.iter().map(|r| r[5]).collect();
    assert_eq!(metrics, METRICS.iter().copied().collect::<BTreeSet<_>>());
    // Every sampler in every dimension it takes (PMJ02, FPO, Lloyd: 2D only).
    let runs = runs_in;
    let pairs = config.dims.iter().map(|d| samplers.iter().filter(|s| runs(s, d.dim)).count());
    assert_eq!(rows.len(), pairs.sum::<usize>() * config.realisations * metrics.len());
    for sampler in &samplers {
        for dim in &config.dims {
            for metric in &metrics {
                let count = rows
                    .iter()
                    .filter(|r| r[0] == *sampler && r[1] == dim.dim.to_string() && r[5] == *metric)
                    .count();
                let expected = if runs(sampler, dim.dim) { config.realisations } else { 0 };
                assert_eq!(count, expected, "{sampler} {}D {metric}", dim.dim);
            }
        }
    }
    assert!(rows.iter().all(|r| r.len() == 7 && r[6].parse::<f64>().is_ok()));
    // Every metric has a value in the quick run (nothing skipped, no empty sets).
    assert!(rows.iter().all(|r| r[6].parse::<f64>().unwrap().is_finite()), "a NaN in results.csv");
    // Poisson-disk samplers keep their distance: no cluster and no close pair at r.
    for row in &rows {
        let spec = &config.samplers[config.sampler_index(row[0]).unwrap()];
        if spec.is_radius_driven() && ["cluster_rate", "pairs_closer"].contains(&row[5]) {
            assert_eq!(row[6], "0.0", "{row:?}");
        }
    }

    check_generated_sections(dir.path(), &outcome.data);
    check_chunked_section(dir.path(), &outcome.data, &config, &figures);

    let timings = read(&dir.path().join("timings.csv"));
    assert!(timings.starts_with("experiment,sampler,dim,n,rep,seed,seconds\n"));
    assert!(timings.contains("\ncomparison,") && timings.contains("\nscaling,"));

    assert_eq!(Config::load(&dir.path().join("config.toml")).unwrap(), config);
    assert!(outcome.summary.contains("bridson") && outcome.summary.contains("time ~ N^a"));
    assert!(outcome.summary.contains("ρ_rel") && outcome.summary.contains("attempts ~ N^b"));
}

/// The variable-density and regions sections: their files, and numbers that show the samplers
/// keep their promises (no pair-rule violation, every point inside, every piece reached) and
/// that the density follows the map.
fn check_generated_sections(out: &Path, data: &ReportData) {
    let figures = out.join("figures");
    let csv = |name: &str| read(&figures.join(name));
    let density = &data.variable_density;
    assert_eq!(density.runs.len(), 2);
    assert_eq!(density.strips.len(), variable_density::STRIPS);
    let strips = csv("density-strips.csv.gz");
    assert!(strips.starts_with(
        "sampler,x_lower,x_upper,points,expected,density_integral,points_per_area,\
         expected_per_area,relative_error,sampling_error\n"
    ));
    assert_eq!(strips.lines().count(), 1 + 2 * variable_density::STRIPS);
    let map = csv("density-map.csv.gz");
    assert_eq!(map.lines().count(), 1 + generated::DENSITY_CELLS * generated::DENSITY_CELLS);
    for run in &density.runs {
        let name = &run.sampler;
        assert_eq!(run.violations, 0, "{name}: pair-rule violations");
        assert!(run.min_ratio >= 1.0 && run.min_ratio < 1.5, "{name}: {}", run.min_ratio);
        assert!((4000..20_000).contains(&run.points.len()), "{name}: {}", run.points.len());
        assert_eq!(run.strip_counts.iter().sum::<usize>(), run.points.len());
        assert!(
            run.radii.iter().all(|r| (variable_density::RMIN..=variable_density::RMAX).contains(r))
        );
        // The counts follow ∫ density: on average within the Poisson error of a strip, and
        // no strip off by more than four of them.
        let (relative, sampling) = run.strip_errors(&density.integrals);
        assert!(relative < sampling, "{name}: {relative} against {sampling}");
        for (e, &m) in run.expected(&density.integrals).iter().zip(&run.strip_counts) {
            assert!((m as f64 - e).abs() < 4.0 * e.sqrt(), "{name}: {m} against {e}");
        }
        // More points on the dense side of the gradient.
        assert!(run.strip_counts[variable_density::STRIPS - 1] > 4 * run.strip_counts[0]);
        let points = csv(&format!("density-points-{name}.csv.gz"));
        assert!(points.starts_with("x0,x1,radius\n"), "{name}");
        assert_eq!(points.lines().count(), run.points.len() + 1);
        let svg = csv(&format!("density-points-{name}.svg"));
        check_dots(name, &svg, &run.points, ([0.0; 2], [1.0; 2]), 1);
    }

    let regions = &data.regions;
    assert_eq!(regions.polygon_runs.len(), 2);
    for run in regions.polygon_runs.iter().chain(std::iter::once(&regions.mesh_run)) {
        let name = format!("{} in the {}", run.sampler, run.region);
        assert!(run.points.len() > 200, "{name}: {}", run.points.len());
        assert_eq!(run.inside, run.points.len(), "{name}: all inside");
        assert!(run.per_piece.iter().all(|&n| n > 0), "{name}: {:?}", run.per_piece);
        // The pieces are disjoint: every point in exactly one.
        assert_eq!(run.per_piece.iter().sum::<usize>(), run.points.len(), "{name}");
        if run.sampler == "bridson" {
            assert!(run.min_distance >= run.radius, "{name}: {}", run.min_distance);
        }
        let file = csv(&format!("regions-{}-{}.csv.gz", run.region, run.sampler));
        assert_eq!(file.lines().count(), run.points.len() + 1, "{name}");
    }
    assert_eq!(regions.polygon_runs[1].points.len(), regions.polygon_runs[0].points.len());
    assert_eq!(regions.polygon_runs[0].per_piece.len(), regions::PIECES.len());
    let polygon = csv("regions-polygon-bridson.svg");
    let square = ([0.0; 2], [1.0; 2]);
    let drawn: Vec<[f64; 2]> =
        regions.polygon_runs[0].points.iter().map(|p| [p[0], p[1]]).collect();
    check_dots("regions-polygon-bridson", &polygon, &drawn, square, 0);
    // One outline per ring (three exteriors and the hole): the lines of more than three
    // vertices (axes and ticks have two).
    let outlines = parse("regions-polygon-bridson.svg", &polygon)
        .descendants()
        .filter(|n| n.has_tag_name("polyline"))
        .filter(|n| n.attribute("points").is_some_and(|p| p.split_whitespace().count() > 3))
        .count();
    assert_eq!(outlines, 4);
    // On surfaces: the fill keeps r and leaves no gap of r; elimination gives exactly the
    // fill's count, better spread than white noise; the files hold every point's columns.
    let surfaces = &data.surfaces;
    let names: Vec<&str> = surfaces.runs.iter().map(|r| r.sampler.as_str()).collect();
    assert_eq!(names, surfaces::SAMPLERS);
    let [fill, fronts, edge, elimination, uniform] = [0, 1, 2, 3, 4].map(|k| &surfaces.runs[k]);
    assert!(fill.points.len() > 1000, "{}", fill.points.len());
    for maximal in [fill, fronts, edge] {
        assert!(maximal.metrics.d_min >= surfaces::RADIUS, "{}", maximal.sampler);
        assert!(maximal.metrics.coverage.largest_gap < surfaces::RADIUS, "{}", maximal.sampler);
    }
    assert_ne!(fronts.points, fill.points);
    let counts = fronts.points.len() as f64 / fill.points.len() as f64;
    assert!((0.97..1.0).contains(&counts), "{counts}");
    // Along the edge: denser (every point's nearest neighbour at r), a higher relative radius.
    assert!(edge.points.len() as f64 > 1.2 * fill.points.len() as f64, "{}", edge.points.len());
    assert!(edge.metrics.relative_radius > fill.metrics.relative_radius + 0.05);
    assert_eq!(elimination.points.len(), fill.points.len());
    assert_eq!(uniform.points.len(), fill.points.len());
    assert!(elimination.metrics.relative_radius > 0.6, "{:?}", elimination.metrics);
    assert!(uniform.metrics.relative_radius < 0.1, "{:?}", uniform.metrics);
    for run in &surfaces.runs {
        let file = csv(&format!("surfaces-{}.csv.gz", run.sampler));
        assert!(file.starts_with("x0,x1,x2,face\n"), "{}", run.sampler);
        assert_eq!(file.lines().count(), run.points.len() + 1);
        let svg = csv(&format!("surfaces-{}.svg", run.sampler));
        let upper = run.points.iter().filter(|p| p[2] > 0.5).count();
        let drawn = if upper > VECTOR_DOTS_UP_TO { (0, 1) } else { (upper, 0) };
        assert_eq!((svg.matches("<circle").count(), svg.matches("<image").count()), drawn);
    }
    let timings = read(&out.join("timings.csv"));
    assert!(
        timings.contains("\nvariable-density,bridson,2,")
            && timings.contains("\nregions,halton,2,")
            && timings.contains("\nsurfaces,elimination,3,")
    );
}

/// The chunked section: both samplers with the configured realisations, every pair at least r
/// apart, count and ρ_rel within the promised 1 %, no chunk bin far above its neighbours, and
/// the figures with their data files and marks.
fn check_chunked_section(
    out: &Path,
    data: &ReportData,
    config: &Config,
    figures: &[(String, String)],
) {
    let result = &data.chunked;
    let r = chunked::RADIUS;
    // The default chunk side 32 r = 0.192 becomes 1/5 on the unit torus.
    assert_eq!(result.chunks, 5);
    assert!((result.chunk_side - 0.2).abs() < 1e-12, "{}", result.chunk_side);
    for runs in [&result.plain, &result.chunked] {
        assert_eq!(runs.runs.len(), config.realisations, "{}", runs.sampler);
        for run in &runs.runs {
            assert!(run.min_distance >= r, "{}: {}", runs.sampler, run.min_distance);
            assert!((15_000..20_000).contains(&run.points), "{}: {}", runs.sampler, run.points);
            assert_eq!(run.axis_power[0].len(), result.axis_max());
            assert_eq!(run.rings.len(), result.k_max);
        }
    }
    // Different seeds for every set.
    let seeds: BTreeSet<u64> = [&result.plain, &result.chunked]
        .iter()
        .flat_map(|runs| runs.runs.iter().map(|run| run.seed))
        .collect();
    assert_eq!(seeds.len(), 2 * config.realisations);
    let (count, _) = result.ratio(|run| run.points as f64);
    let (rho, _) = result.ratio(|run| run.relative_radius);
    assert!((count - 1.0).abs() < 0.01 && (rho - 1.0).abs() < 0.01, "{count} {rho}");
    let lines = result.lines();
    assert_eq!(lines.iter().map(|l| l.k).collect::<Vec<_>>(), [5, 10, 15]);
    for line in &lines {
        // The seam of a naive fill stood 17 times above its neighbours; noise in a few
        // realisations stays far below 4 times.
        let bound = 4.0 * line.neighbours.0.max(line.plain.0);
        assert!(line.chunked.0 < bound, "k = {}: {line:?} ({})", line.k, line.verdict());
    }

    let figures_dir = out.join("figures");
    let csv = |name: &str| read(&figures_dir.join(name));
    let spectrum = csv("chunked-spectrum.csv.gz");
    assert!(spectrum.starts_with("sampler,frequency,power,std_error\n"));
    assert_eq!(spectrum.lines().count(), 1 + 2 * result.k_max);
    let axis = csv("chunked-axis-periodogram.csv.gz");
    assert!(axis.starts_with("sampler,j,power_x,power_y,power,std_error\n"));
    assert_eq!(axis.lines().count(), 1 + 2 * result.axis_max());
    let table = csv("chunked-lines.csv.gz");
    assert!(table.starts_with("harmonic,k,chunked_power,"));
    assert_eq!(table.lines().count(), 1 + chunked::HARMONICS);
    let realisations = csv("chunked-realisations.csv.gz");
    assert!(
        realisations
            .starts_with("sampler,rep,seed,points,attempts,relative_radius,min_distance_over_r\n")
    );
    assert_eq!(realisations.lines().count(), 1 + 2 * config.realisations);
    for sampler in [chunked::PLAIN, chunked::CHUNKED] {
        for name in ["chunked-spectrum.svg", "chunked-axis-periodogram.svg"] {
            // One curve and one legend swatch.
            assert_eq!(coloured(figures, name, "polyline", "stroke", sampler), 2, "{name}");
        }
    }
    // The chunk frequencies are marked.
    let axis_svg = &figures.iter().find(|(n, _)| n == "chunked-axis-periodogram.svg").unwrap().1;
    let mark = format!("stroke=\"{}\"", colour_hex(experiments::plot::MARK_COLOUR));
    assert!(axis_svg.matches(&mark).count() > 3 * chunked::HARMONICS, "no marks");
    let timings = read(&out.join("timings.csv"));
    assert!(
        timings.contains("\nchunked,bridson,2,")
            && timings.contains("\nchunked,chunked-bridson,2,")
    );
}

#[test]
fn the_binary_reruns_from_the_written_config_byte_for_byte() {
    let (first, second) = (temp_dir("first"), temp_dir("second"));
    let run = |args: &[&str]| {
        let output = experiments(args);
        let stderr = String::from_utf8_lossy(&output.stderr).to_string();
        assert!(output.status.success(), "{args:?}: {stderr}");
        String::from_utf8(output.stdout).unwrap()
    };
    let stdout = run(&["--quick", "--out", first.path().to_str().unwrap()]);
    assert!(stdout.contains("2D, r = 0.06") && stdout.contains("index.html"), "{stdout}");
    let config = first.path().join("config.toml");
    run(&[
        "report",
        "--config",
        config.to_str().unwrap(),
        "--out",
        second.path().to_str().unwrap(),
    ]);
    let a = std::fs::read(first.path().join("results.csv")).unwrap();
    let b = std::fs::read(second.path().join("results.csv")).unwrap();
    assert!(a == b, "results.csv differs between the run and its rerun");
    // So does the data behind every figure, except the timings of the scaling experiment.
    let mut compared = 0;
    for entry in std::fs::read_dir(first.path().join("figures")).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().to_string();
        if name.ends_with(".csv.gz") && !name.starts_with("scaling") {
            let a = std::fs::read(first.path().join("figures").join(&name)).unwrap();
            let b = std::fs::read(second.path().join("figures").join(&name)).unwrap();
            assert!(a == b, "figures/{name} differs between the run and its rerun");
            compared += 1;
        }
    }
    assert!(compared > 20, "{compared}");
    assert_eq!(
        std::fs::read(&config).unwrap(),
        std::fs::read(second.path().join("config.toml")).unwrap()
    );
}

#[test]
fn the_binary_reports_bad_configs_by_key() {
    let dir = temp_dir("bad");
    let path = dir.path().join("bad.toml");
    std::fs::write(
        &path,
        Config::quick_config().unwrap().to_toml().unwrap().replace("k = 30", "k = 0"),
    )
    .unwrap();
    let output = experiments(&["report", "--config", path.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("samplers[0].k must be at least 1, got 0"), "{stderr}");
    let output = experiments(&["--quick", "--config", path.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(2));
    // An output folder that is a file: refused before the report is computed.
    let output = experiments(&["report", "--quick", "--out", path.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("bad.toml: exists and is not a folder"), "{stderr}");
}

/// The metrics of results.csv: the runner's attempts and every scalar of the standard analyzer.
const METRICS: [&str; 15] = [
    "attempts",
    "min_distance",
    "relative_radius",
    "packing_fraction",
    "cluster_rate",
    "pairs_closer",
    "mean_nn",
    "clark_evans",
    "coverage",
    "l2_star_discrepancy",
    "effective_nyquist",
    "effective_nyquist_over_spacing",
    "spectral_peak_frequency",
    "spectral_peak_power",
    "low_frequency_power",
];

fn quick_text() -> String {
    experiments::config::QUICK_TOML.to_string()
}

fn error_of(text: &str) -> String {
    match Config::from_toml(text) {
        Ok(_) => panic!("accepted:\n{text}"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn unknown_keys_are_named() {
    let cases = [
        (quick_text().replace("seed = ", "colour = 1\nseed = "), "colour"),
        (quick_text().replace("k = 30", "k = 30\nradius = 0.1"), "radius"),
        (quick_text().replace("histogram_bins", "histogram_bin"), "histogram_bin"),
        (quick_text().replace("reps = 2", "reps = 2\nrepeat = 3"), "repeat"),
        (quick_text().replace("dim = 3\n", "dim = 3\nwidth = 2\n"), "width"),
        (quick_text().replace("coverage_probes", "coverage_probe"), "coverage_probe"),
        (quick_text().replace("candidates = 10", "candidate = 10"), "candidate"),
    ];
    for (text, key) in cases {
        let message = error_of(&text);
        assert!(message.contains(&format!("`{key}`")) || message.contains(key), "{key}: {message}");
        let sampler_key = message.contains("is not a parameter of");
        assert!(message.contains("unknown field") || sampler_key, "{key}: {message}");
    }
}

#[test]
fn bad_values_are_named() {
    let cases = [
        (
            quick_text().replace("radius = 0.06", "radius = -1"),
            "dims[0].radius must be > 0, got -1",
        ),
        (
            quick_text().replace("dim = 3\n", "dim = 9\n"),
            "dims[1].dim must be between 1 and 8, got 9",
        ),
        (quick_text().replace("dim = 3\n", "dim = 2\n"), "dims[1].dim 2 is listed twice"),
        (
            quick_text().replace("realisations = 2", "realisations = 0"),
            "realisations must be at least 1, got 0",
        ),
        (
            quick_text().replace("name = \"white-noise\"", "name = \"nope\""),
            "samplers[12].name 'nope' is not a sampler",
        ),
        (
            quick_text().replace("k = 30", "candidates = 4"),
            "samplers[0].candidates is not a parameter of 'bridson'",
        ),
        (
            quick_text().replace("    \"gaussian-blue-noise\",\n]", "    \"nope\",\n]"),
            "scaling.samplers[9] 'nope' is not in samplers",
        ),
        (
            quick_text().replace("n = [100, 300, 1000]", "n = [100, 0]"),
            "scaling.n[1] must be at least 1, got 0",
        ),
        (
            quick_text().replace("spectrum_max_frequency = 1.5", "spectrum_max_frequency = nan"),
            "metrics.spectrum_max_frequency must be > 0, got NaN",
        ),
        (
            quick_text().replace("relative_radius = 0.75", "relative_radius = 2.0"),
            "relative_radius must be in (0, 1], got 2",
        ),
        (
            quick_text().replace("candidates = 10", "candidates = 10\nskip = 3"),
            "samplers[4].skip is not a parameter of 'best-candidate' (it takes: candidates, \
             growing_candidates)",
        ),
        (
            quick_text().replace("name = \"jittered-grid\"", "name = \"jittered-grid\"\nk = 3"),
            "samplers[11].k is not a parameter of 'jittered-grid' (it takes: none)",
        ),
        (
            quick_text().replace("ratio = 5.0", "ratio = 0.5"),
            "samplers[5].ratio must be finite and at least 1, got 0.5",
        ),
        (
            quick_text().replace("name = \"maximal\"", "name = \"maximal\"\nk = 3"),
            "samplers[3].k is not a parameter of 'maximal' (it takes: none)",
        ),
        (
            quick_text().replace("max_misses = 1000\n", "max_misses = 0\n"),
            "samplers[1].max_misses must be at least 1, got 0",
        ),
        (
            quick_text().replace("name = \"halton\"\n", "name = \"halton\"\nrandomize = true\n"),
            "samplers[6].randomize is no longer a key: the scrambled sequence is its own sampler, \
             name = \"halton-randomized\"",
        ),
        (
            quick_text().replace("name = \"halton\"\n", "name = \"halton-randomized\"\n"),
            "samplers[7].name 'halton-randomized' is listed twice (first as samplers[6])",
        ),
        (
            quick_text().replace("histogram_range = 2.0", "histogram_range = -2.0"),
            "metrics.histogram_range must be > 0, got -2",
        ),
        (
            quick_text().replace("pair_correlation_bins = 20", "pair_correlation_bins = 0"),
            "metrics.pair_correlation_bins must be at least 1, got 0",
        ),
        (
            quick_text().replace("dart-throwing = 300", "halton = 300"),
            "scaling.max_n.halton 'halton' is not in scaling.samplers",
        ),
        (
            quick_text().replace("dart-throwing = 300", "dart-throwing = 50"),
            "scaling.max_n.dart-throwing is below every target count (the smallest is 100), got 50",
        ),
    ];
    for (text, expected) in cases {
        let message = error_of(&text);
        assert!(message.contains(expected), "expected `{expected}`, got `{message}`");
    }
    // Type errors come from the parser, which names the key and its line.
    let message = error_of(&quick_text().replace("seed = 20240601", "seed = \"x\""));
    assert!(message.contains("seed"), "{message}");
    let message = error_of(&quick_text().replace("seed = 20240601", "seed = -5"));
    assert!(message.contains("seed"), "{message}");
    // On one line, the line of the file shown.
    assert!(
        message.contains("(`seed = -5`): invalid value") && !message.contains('\n'),
        "{message}"
    );
    let message = error_of(&quick_text().replace("realisations = 2\n", ""));
    assert!(message.contains("realisations"), "{message}");
    let message = error_of(&quick_text().replace("candidates = 10", "growing_candidates = 3"));
    assert!(message.contains("growing_candidates"), "{message}");
}

/// An analyzer with every kind of output, to drive each figure of the report: a real
/// (small) periodogram and radial spectrum, an NN histogram with the white-noise density.
struct FullAnalyzer;

impl Analyzer for FullAnalyzer {
    fn analyze<const D: usize>(
        &self,
        set: &PointSet<D>,
        context: &AnalysisContext<'_>,
    ) -> Measurements
    where
        Dim<D>: AnalyzeIn<D>,
    {
        let n = set.len().max(1);
        let mut nearest = vec![f64::INFINITY; set.len()];
        for i in 0..set.len() {
            for j in 0..set.len() {
                if i != j {
                    let d = set.domain.distance_squared(&set.points[i], &set.points[j]).sqrt();
                    nearest[i] = nearest[i].min(d);
                }
            }
        }
        let bins = context.options.histogram_bins;
        let r = context.radius;
        let scaled: Vec<f64> = nearest.iter().map(|d| d / r).collect();
        // White noise: p(x) for x = d / r, with ρ V_D r^D = λ.
        let ball = match D {
            2 => std::f64::consts::PI,
            3 => 4.0 / 3.0 * std::f64::consts::PI,
            _ => 2.0,
        };
        let lambda = n as f64 * ball * r.powi(D as i32);
        let expected = (0..=100)
            .map(|i| {
                let x = 2.0 * i as f64 / 100.0;
                (x, lambda * D as f64 * x.powi(D as i32 - 1) * (-lambda * x.powi(D as i32)).exp())
            })
            .collect();
        let mut analysis = Measurements {
            scalars: vec![
                ("fake_min".into(), nearest.iter().copied().fold(f64::INFINITY, f64::min) / r),
                (
                    "fake_cluster".into(),
                    nearest.iter().filter(|&&d| d < r).count() as f64 / n as f64,
                ),
            ],
            nn_histogram: Some(Histogram::new(&scaled, 0.0, 2.0, bins)),
            nn_expected: expected,
            ..Measurements::default()
        };
        if D == 2 {
            let m = (context.options.spectrum_max_frequency * (n as f64).sqrt()).ceil() as i64;
            let side = (2 * m + 1) as usize;
            let mut power = vec![0.0; side * side];
            let mut rings = vec![(0.0, 0usize); m as usize + 1];
            for ky in -m..=m {
                for kx in -m..=m {
                    let (mut re, mut im) = (0.0, 0.0);
                    for p in &set.points {
                        let phase =
                            -2.0 * std::f64::consts::PI * (kx as f64 * p[0] + ky as f64 * p[1]);
                        re += phase.cos();
                        im += phase.sin();
                    }
                    let value = (re * re + im * im) / n as f64;
                    power[((ky + m) as usize) * side + (kx + m) as usize] = value;
                    let ring = ((kx * kx + ky * ky) as f64).sqrt().round() as usize;
                    if ring > 0 && ring <= m as usize {
                        rings[ring].0 += value;
                        rings[ring].1 += 1;
                    }
                }
            }
            analysis.periodogram = Some(Periodogram { max_frequency: m as usize, values: power });
            analysis.radial_spectrum = Some(Curve {
                x_label: "|k| / √N".into(),
                points: (1..=m as usize)
                    .map(|k| (k as f64 / (n as f64).sqrt(), rings[k].0 / rings[k].1.max(1) as f64))
                    .collect(),
            });
        }
        analysis
    }

    fn charts(&self, _context: &ChartContext) -> Vec<ChartSpec> {
        vec![
            ChartSpec {
                metric: "fake_cluster".into(),
                label: "cluster rate".into(),
                from_zero: true,
                reference: None,
            },
            ChartSpec {
                metric: "fake_min".into(),
                label: "min distance / r".into(),
                from_zero: true,
                reference: Some(experiments::plot::Reference { label: "r".into(), value: 1.0 }),
            },
        ]
    }
}

#[test]
fn every_figure_kind_is_drawn_from_an_analyzer() {
    let dir = temp_dir("full");
    let config = Config::quick_config().unwrap();
    let outcome = write_report(&config, dir.path(), &FullAnalyzer, false).unwrap();
    let data: &ReportData = &outcome.data;
    assert!(data.dims[0].samplers.iter().all(|s| s.spectrum.is_some() && s.periodogram.is_some()));
    let figures = check_figures(dir.path());
    let find = |name: &str| {
        figures.iter().find(|(n, _)| n == name).unwrap_or_else(|| panic!("no {name}")).1.as_str()
    };
    let samplers: Vec<&str> = config.samplers.iter().map(|s| s.name()).collect();
    for sampler in &samplers {
        let colour = colour_hex(sampler_colour(sampler));
        assert_eq!(
            count_coloured(
                &parse("spectrum", find("2d-spectrum.svg")),
                "polyline",
                "stroke",
                &colour
            ),
            2,
            "curve + legend"
        );
        let periodogram = parse(sampler, find(&format!("2d-periodogram-{sampler}.svg")));
        assert_eq!(periodogram.descendants().filter(|n| n.tag_name().name() == "image").count(), 1);
        assert_eq!(
            count_coloured(
                &parse("metric", find("2d-metric-fake_cluster.svg")),
                "circle",
                "fill",
                &colour
            ),
            1
        );
    }
    for dim in [2, 3] {
        let histogram = parse("histogram", find(&format!("{dim}d-nn-histogram.svg")));
        let curve = colour_hex(EXPECTED_COLOUR);
        // A curve per panel (the planar samplers sit out 3D) and the legend's swatch.
        let panels = samplers.iter().filter(|s| runs_in(s, dim)).count();
        assert_eq!(count_coloured(&histogram, "polyline", "stroke", &curve), panels + 1);
    }
    let csv = read(&dir.path().join("results.csv"));
    assert!(csv.contains(",fake_cluster,") && csv.contains(",fake_min,"));
    // The same analyzer and config give the same bytes.
    let again = temp_dir("full-again");
    write_report(&config, again.path(), &FullAnalyzer, false).unwrap();
    assert_eq!(csv, read(&again.path().join("results.csv")));
}
