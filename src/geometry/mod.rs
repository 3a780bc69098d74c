//! Geometry the samplers and surfaces share: the planar Delaunay triangulation of the
//! optimisers (FPO, Lloyd) and the vector helpers of the mesh code.

pub(crate) mod delaunay2;
pub(crate) mod vector;
