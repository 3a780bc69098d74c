//! CSV point files as the command line writes them.

/// The points of a CSV point file of dimension `dim`: checks the header `x0,x1,…` and that
/// every row has `dim` numbers.
pub fn csv_points(text: &str, dim: usize) -> Vec<Vec<f64>> {
    let mut lines = text.lines();
    let header: Vec<String> = (0..dim).map(|i| format!("x{i}")).collect();
    assert_eq!(lines.next(), Some(header.join(",").as_str()));
    lines
        .map(|line| line.split(',').map(|x| x.parse().expect("a number")).collect::<Vec<f64>>())
        .inspect(|p| assert_eq!(p.len(), dim))
        .collect()
}
