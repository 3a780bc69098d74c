#!/usr/bin/env Rscript
# spatstat's summary functions for the point sets stored in experiments/tests/data/spatstat/,
# written next to them as the reference values of experiments/tests/it/spatial_stats_spatstat.rs.
#
# Usage (from the repository's root; R and spatstat from Debian: apt-get install r-cran-spatstat):
#
#   Rscript experiments/tools/spatstat_reference.R [DIR]
#
# DIR (default experiments/tests/data/spatstat) holds sets.csv, one line per point set (name,
# box, largest r and number of steps of the grid), and NAME.csv with the points (header x0,x1).
# For each set it writes
#
#   NAME.spatstat.csv  one row per r: K, L, g (pcf) for the corrections none, translation,
#                      isotropic and periodic; g again from an 8192 times finer grid (gfine_*);
#                      G, F and J for raw, rs and km; F and J again from exact probe distances
#                      (Fexact_*, Jexact_*). NA where spatstat gives NA.
#   NAME.meta.csv      key,value: points, area, intensity, the pcf kernel's half-width, the
#                      pixels where spatstat's distance transform is not the exact distance,
#                      the versions of R and spatstat.
#
# Numbers are written with 17 significant digits, so that they read back to the same doubles.

suppressMessages(library(spatstat))

args <- commandArgs(trailingOnly = TRUE)
dir <- if (length(args) >= 1) args[1] else file.path("experiments", "tests", "data", "spatstat")
sets <- read.csv(file.path(dir, "sets.csv"), stringsAsFactors = FALSE)

# How much finer the grid of the second pcf is. pcf smooths with R's density(), which bins
# the pair distances linearly onto a grid of max(512, 2^ceiling(log2(length(r)))) points and
# convolves by FFT: its error falls as 1/FINE (the Epanechnikov kernel has a kink at its
# edges), about 8e-3 of g's scale on the plain grid and below 1e-6 at 8192 times as many
# values (2^21 grid points; a few seconds per estimate).
FINE <- 8192

text <- function(x) ifelse(is.na(x), "NA", sprintf("%.17g", x))

write_table <- function(frame, path) {
  columns <- lapply(frame, text)
  lines <- do.call(paste, c(columns, sep = ","))
  writeLines(c(paste(names(frame), collapse = ","), lines), path)
}

# F's raw, rs and km estimates from probe distances `dist` and boundary distances `bdry`,
# as Fest computes them from its distance transform (histogram on the breaks of r).
f_estimates <- function(dist, bdry, r) {
  breaks <- breakpts.from.r(r)
  uncensored <- dist <= bdry
  observed <- pmin.int(dist, bdry)
  counts <- hist(dist[dist <= max(r)], breaks = breaks$val, plot = FALSE)$counts
  censored <- km.rs.opt(observed, bdry, uncensored, breaks, KM = TRUE, RS = TRUE)
  list(raw = cumsum(counts) / length(dist), rs = censored$rs, km = censored$km)
}

j_of <- function(G, F) ifelse(1 - F == 0, NA, (1 - G) / (1 - F))

for (row in seq_len(nrow(sets))) {
  set <- sets[row, ]
  W <- owin(c(set$x_origin, set$x_origin + set$x_extent),
            c(set$y_origin, set$y_origin + set$y_extent))
  xy <- read.csv(file.path(dir, paste0(set$name, ".csv")))
  X <- ppp(xy$x0, xy$x1, window = W)
  stopifnot(npoints(X) == nrow(xy))
  r <- seq(0, set$r_max, length.out = set$steps + 1)
  r_fine <- seq(0, set$r_max, length.out = FINE * set$steps + 1)
  on_grid <- seq(1, by = FINE, length.out = set$steps + 1)
  out <- data.frame(r = r)

  pair_corrections <- c("none", "translate", "isotropic")
  K <- Kest(X, r = r, correction = pair_corrections)
  L <- Lest(X, r = r, correction = pair_corrections)
  K_periodic <- Kest(X, r = r, correction = "periodic")
  L_periodic <- Lest(X, r = r, correction = "periodic")
  out$K_none <- K$un
  out$K_translation <- K$trans
  out$K_isotropic <- K$iso
  out$K_periodic <- K_periodic$per
  out$L_none <- L$un
  out$L_translation <- L$trans
  out$L_isotropic <- L$iso
  out$L_periodic <- L_periodic$per

  # The pair correlation with spatstat's defaults (Epanechnikov kernel, Stoyan's rule 0.15,
  # divisor r). Uncorrected estimates (closed box, and the box as a torus from its toroidal
  # close pairs) go through the translation path with every pair's offset set to 0, which
  # makes every weight exactly 1: pcf(correction = "none") in spatstat.explore 3.0-6 passes
  # the single weight 1 to unnormdensity(), which then returns the density of the distances
  # (mass 1) instead of their kernel sum, i.e. g divided by the number of close pairs.
  g <- pcf(X, r = r, correction = c("translate", "isotropic"))
  g_fine <- pcf(X, r = r_fine, correction = c("translate", "isotropic"))
  half_width <- attr(g, "bw") * sqrt(5)
  unweighted <- function(close) {
    close$dx[] <- 0
    close$dy[] <- 0
    close
  }
  close_box <- unweighted(closepairs(X, set$r_max + half_width, what = "all"))
  close_torus <- unweighted(closepairs(X, set$r_max + half_width, what = "all", periodic = TRUE))
  g_none <- pcf(X, r = r, correction = "translate", close = close_box)
  g_fine_none <- pcf(X, r = r_fine, correction = "translate", close = close_box)
  g_periodic <- pcf(X, r = r, correction = "translate", close = close_torus)
  g_fine_periodic <- pcf(X, r = r_fine, correction = "translate", close = close_torus)
  out$g_none <- g_none$trans
  out$g_translation <- g$trans
  out$g_isotropic <- g$iso
  out$g_periodic <- g_periodic$trans
  out$gfine_none <- g_fine_none$trans[on_grid]
  out$gfine_translation <- g_fine$trans[on_grid]
  out$gfine_isotropic <- g_fine$iso[on_grid]
  out$gfine_periodic <- g_fine_periodic$trans[on_grid]

  distance_corrections <- c("none", "rs", "km")
  G <- Gest(X, r = r, correction = distance_corrections)
  F <- Fest(X, r = r, correction = distance_corrections)
  J <- Jest(X, r = r, correction = distance_corrections)
  out$G_raw <- G$raw
  out$G_rs <- G$rs
  out$G_km <- G$km
  out$F_raw <- F$raw
  out$F_rs <- F$rs
  out$F_km <- F$km
  out$J_raw <- J$un
  out$J_rs <- J$rs
  out$J_km <- J$km

  # F from the same probes (Fest's pixel centres, 128 x 128 by default) with exact distances
  # to the nearest point. With the distance transform's distances the same code must give
  # Fest's values: that checks it is Fest's computation.
  mask <- as.mask(W)
  transform <- exactdt(ppp(X$x, X$y, window = mask, check = FALSE))
  centres <- raster.xy(transform$w, drop = FALSE)
  probes <- ppp(centres$x, centres$y, window = W, check = FALSE)
  exact <- matrix(nncross(probes, X, what = "dist"), nrow = transform$w$dim[1])
  wrong_pixels <- sum(abs(transform$d - exact) > 1e-12)
  as_fest <- f_estimates(as.vector(transform$d), as.vector(transform$b), r)
  stopifnot(max(abs(as_fest$raw - F$raw)) < 1e-14,
            max(abs(as_fest$rs - F$rs)) < 1e-14,
            max(abs(as_fest$km - F$km)) < 1e-14)
  F_exact <- f_estimates(as.vector(exact), as.vector(transform$b), r)
  out$Fexact_raw <- F_exact$raw
  out$Fexact_rs <- F_exact$rs
  out$Fexact_km <- F_exact$km
  out$Jexact_raw <- j_of(G$raw, F_exact$raw)
  out$Jexact_rs <- j_of(G$rs, F_exact$rs)
  out$Jexact_km <- j_of(G$km, F_exact$km)

  write_table(out, file.path(dir, paste0(set$name, ".spatstat.csv")))
  meta <- data.frame(
    key = c("points", "area", "intensity", "pcf_half_width", "probes_per_axis",
            "exactdt_wrong_pixels", "R", "spatstat", "spatstat.explore", "spatstat.geom"),
    value = c(text(npoints(X)), text(area(W)), text(intensity(X)), text(half_width),
              text(transform$w$dim[2]), text(wrong_pixels), R.version.string,
              as.character(packageVersion("spatstat")),
              as.character(packageVersion("spatstat.explore")),
              as.character(packageVersion("spatstat.geom"))))
  writeLines(c("key,value", paste(meta$key, meta$value, sep = ",")),
             file.path(dir, paste0(set$name, ".meta.csv")))
  cat(set$name, ": ", npoints(X), " points, ", wrong_pixels,
      " pixels where the distance transform is not exact\n", sep = "")
}
