//! The report page: one self-contained HTML file (inline CSS and SVG, no script, nothing
//! fetched from the network).

use super::environment::Environment;

/// A table: a header row and body rows of text.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Table {
    /// A caption above the table; empty for none.
    pub caption: String,
    /// Column headings.
    pub header: Vec<String>,
    /// Rows of cells (the first cell of each row is its heading).
    pub rows: Vec<Vec<String>>,
    /// Whether the cells are text (left-aligned) rather than numbers (right-aligned).
    pub text: bool,
}

/// A CSV file of the data a figure is drawn from, written gzip-compressed as
/// [`written_name`](DataFile::written_name) under `figures/`.
#[derive(Debug, Clone, PartialEq)]
pub struct DataFile {
    /// The CSV file's name (`2d-points-bridson.csv`).
    pub file: String,
    /// The CSV text.
    pub text: String,
}

impl DataFile {
    /// The name the file is written and linked under: the CSV name with `.gz`. Point sets and
    /// periodograms are most of a report's bytes; compressed, they keep every digit at less
    /// than half the size, and every CSV reader of note (pandas, numpy, R) opens them as they
    /// are.
    pub fn written_name(&self) -> String {
        format!("{}.gz", self.file)
    }

    /// The compressed bytes written: gzip with no name and no time stamp in its header, so a
    /// rerun writes the same bytes.
    pub fn compressed(&self) -> std::io::Result<Vec<u8>> {
        use std::io::Write;
        let mut encoder =
            flate2::GzBuilder::new().mtime(0).write(Vec::new(), flate2::Compression::best());
        encoder.write_all(self.text.as_bytes())?;
        encoder.finish()
    }
}

/// A figure: an SVG document, its caption, and the data it is drawn from.
#[derive(Debug, Clone, PartialEq)]
pub struct Figure {
    /// The file name it is also written to, under `figures/`.
    pub file: String,
    /// The caption.
    pub caption: String,
    /// The SVG document.
    pub svg: String,
    /// The CSV files with the figure's data, written next to it and linked in the caption.
    pub data: Vec<DataFile>,
}

/// A section of the page.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Section {
    /// The heading.
    pub heading: String,
    /// Paragraphs of plain text.
    pub paragraphs: Vec<String>,
    /// Tables, before the figures.
    pub tables: Vec<Table>,
    /// Figures, in a grid.
    pub figures: Vec<Figure>,
    /// Subsections, after the figures (one heading level down).
    pub subsections: Vec<Section>,
}

/// The page.
#[derive(Debug, Clone, PartialEq)]
pub struct Page {
    /// The title.
    pub title: String,
    /// Where and when.
    pub environment: Environment,
    /// The configuration as written to `config.toml`.
    pub config_toml: String,
    /// The sections, in order.
    pub sections: Vec<Section>,
}

const STYLE: &str = "body{font-family:sans-serif;margin:2em auto;max-width:1400px;padding:0 1em;color:#222}\
h1{font-size:1.6em}h2{margin-top:2em;border-bottom:1px solid #ccc}h3{margin-top:1.5em}\
p{max-width:60em;line-height:1.4}\
table{border-collapse:collapse;margin:1em 0;font-size:.9em}\
caption{text-align:left;font-weight:bold;padding:.3em 0}\
th,td{border:1px solid #ddd;padding:.25em .6em;text-align:right}\
th:first-child,td:first-child{text-align:left}thead th{background:#f3f3f3}\
.figures{display:flex;flex-wrap:wrap;gap:1.5em;align-items:flex-start}\
figure{margin:0}figcaption{font-size:.85em;color:#555;max-width:680px}\
table.text td{text-align:left}\
pre{background:#f6f6f6;padding:1em;overflow-x:auto;font-size:.85em}";

/// Escapes text for HTML element content and attribute values.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            other => out.push(other),
        }
    }
    out
}

/// Renders the page.
pub fn render_page(page: &Page) -> String {
    let mut html = String::new();
    html.push_str("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
    html.push_str(&format!(
        "<title>{}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n",
        escape(&page.title)
    ));
    html.push_str(&format!("<h1>{}</h1>\n", escape(&page.title)));
    html.push_str(
        "<p>Data: <a href=\"results.csv\">results.csv</a> (tidy: sampler, dim, n, rep, seed, metric, \
         value), <a href=\"timings.csv\">timings.csv</a> (the times, which vary from run to run), \
         and the configuration that reproduces them, <a href=\"config.toml\">config.toml</a>: \
         <code>cargo run --release -p experiments -- report --config report/config.toml</code> \
         gives a byte-identical results.csv. Every figure is also in <code>figures/</code>, next to \
         the CSV files it is drawn from.</p>\n",
    );
    let env = &page.environment;
    let environment = Table {
        caption: "Environment".into(),
        header: vec!["".into(), "".into()],
        rows: vec![
            vec!["poisson-nd version".into(), env.version.clone()],
            vec!["date".into(), env.date_utc.clone()],
            vec!["CPU".into(), env.cpu.clone()],
            vec!["logical cores".into(), env.cores.to_string()],
            vec!["platform".into(), env.platform.clone()],
        ],
        text: true,
    };
    push_table(&mut html, &environment, false);
    for section in &page.sections {
        push_section(&mut html, section, 2);
    }
    html.push_str("<h2>Configuration</h2>\n");
    html.push_str(&format!("<pre>{}</pre>\n</body>\n</html>\n", escape(&page.config_toml)));
    html
}

fn push_section(html: &mut String, section: &Section, level: usize) {
    let level = level.min(6);
    html.push_str(&format!("<h{level}>{}</h{level}>\n", escape(&section.heading)));
    for paragraph in &section.paragraphs {
        html.push_str(&format!("<p>{}</p>\n", escape(paragraph)));
    }
    for table in &section.tables {
        push_table(html, table, true);
    }
    if !section.figures.is_empty() {
        html.push_str("<div class=\"figures\">\n");
        for figure in &section.figures {
            let mut caption = escape(&figure.caption);
            if !figure.data.is_empty() {
                let links: Vec<String> = figure
                    .data
                    .iter()
                    .map(|d| format!("<a href=\"figures/{0}\">{0}</a>", escape(&d.written_name())))
                    .collect();
                caption.push_str(&format!(" Data: {}.", links.join(", ")));
            }
            html.push_str(&format!(
                "<figure id=\"{}\">\n{}\n<figcaption>{caption}</figcaption>\n</figure>\n",
                escape(&figure.file),
                strip_xml_declaration(&figure.svg),
            ));
        }
        html.push_str("</div>\n");
    }
    for subsection in &section.subsections {
        push_section(html, subsection, level + 1);
    }
}

fn push_table(html: &mut String, table: &Table, with_header: bool) {
    html.push_str(if table.text { "<table class=\"text\">\n" } else { "<table>\n" });
    if !table.caption.is_empty() {
        html.push_str(&format!("<caption>{}</caption>\n", escape(&table.caption)));
    }
    if with_header {
        html.push_str("<thead><tr>");
        for cell in &table.header {
            html.push_str(&format!("<th>{}</th>", escape(cell)));
        }
        html.push_str("</tr></thead>\n");
    }
    html.push_str("<tbody>\n");
    for row in &table.rows {
        html.push_str("<tr>");
        for (i, cell) in row.iter().enumerate() {
            let tag = if i == 0 { "th" } else { "td" };
            html.push_str(&format!("<{tag}>{}</{tag}>", escape(cell)));
        }
        html.push_str("</tr>\n");
    }
    html.push_str("</tbody>\n</table>\n");
}

/// An SVG document without a leading `<?xml ...?>` declaration, for inlining.
fn strip_xml_declaration(svg: &str) -> &str {
    let trimmed = svg.trim_start();
    match trimmed.strip_prefix("<?xml").and_then(|rest| rest.split_once("?>")) {
        Some((_, rest)) => rest.trim_start(),
        None => trimmed,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn page_inlines_figures_and_escapes_text() {
        let page = Page {
            title: "A <report>".into(),
            environment: Environment {
                version: "0.1.0".into(),
                date_utc: "1970-01-01 00:00:00 UTC".into(),
                cpu: "cpu & co".into(),
                cores: 2,
                platform: "linux-x86_64".into(),
            },
            config_toml: "seed = 1 # <x>".into(),
            sections: vec![Section {
                heading: "2D".into(),
                paragraphs: vec!["r < 1".into()],
                tables: vec![Table {
                    caption: "metrics".into(),
                    header: vec!["metric".into(), "bridson".into()],
                    rows: vec![vec!["points".into(), "10".into()]],
                    text: false,
                }],
                figures: vec![Figure {
                    file: "a.svg".into(),
                    caption: "a figure".into(),
                    svg:
                        "<?xml version=\"1.0\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\"></svg>"
                            .into(),
                    data: vec![DataFile { file: "a.csv".into(), text: "x\n1\n".into() }],
                }],
                subsections: vec![Section { heading: "detail".into(), ..Section::default() }],
            }],
        };
        let html = render_page(&page);
        assert!(html.contains("<title>A &lt;report&gt;</title>"));
        assert!(html.contains("cpu &amp; co") && html.contains("r &lt; 1"));
        assert!(html.contains("<figure id=\"a.svg\">\n<svg xmlns"));
        assert!(html.contains("Data: <a href=\"figures/a.csv.gz\">a.csv.gz</a>."));
        assert!(html.contains("<h3>detail</h3>"));
        assert!(html.contains("seed = 1 # &lt;x&gt;"));
        assert!(!html.contains("<script") && !html.contains(" src="));
    }
}
