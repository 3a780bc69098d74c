//! Large scratch arrays, in zeroed memory that asks the kernel for huge pages on Linux.
//!
//! Sample elimination keeps each candidate's neighbours in rows of up to 256 MiB, written once
//! in order and then read at random, one removed candidate's row at a time. In 4 KiB pages
//! every page costs a fault when first written, and most reads of a row miss the TLB as well
//! as the caches. Linux gives transparent huge pages (2 MiB) by default only to memory that asks
//! for them (`madvise` mode), which `std`'s allocator never does; an anonymous mapping can
//! (`madvise(MADV_HUGEPAGE)`, through `memmap2`, without `unsafe` here). At 10⁵ points on a
//! surface of 327,680 triangles (114 MB of rows) the elimination then takes 0.31 s instead of
//! 0.34 s (interleaved runs, docs/performance.md). Where the kernel says no, the pages are ordinary ones; below
//! [`MAPPED_FROM`] bytes, off Linux, or where the mapping fails, the memory is a `Vec`. The
//! contents are the same in every case, so nothing the caller computes depends on which.

use std::ops::{Deref, DerefMut};

/// An element of a scratch array: plain data whose all-zero bytes are its `Default`.
#[cfg(target_os = "linux")]
pub(crate) trait Element: bytemuck::Pod + Default {}
/// An element of a scratch array: plain data whose all-zero bytes are its `Default`.
#[cfg(not(target_os = "linux"))]
pub(crate) trait Element: Copy + Default {}

impl Element for u32 {}
impl Element for f64 {}

/// The size from which an array is mapped on its own (and asks for huge pages): one huge
/// page and more. Smaller arrays stay on the heap, where a mapping's system calls would cost
/// more than the faults they save.
const MAPPED_FROM: usize = 2 << 20;

/// Where the elements live.
#[derive(Debug)]
enum Memory<T> {
    Heap(Vec<T>),
    /// An anonymous mapping (zeroed by the kernel) of whole elements, page-aligned.
    #[cfg(target_os = "linux")]
    Mapped(memmap2::MmapMut),
}

/// A growable array of `len` elements, like a `Vec` that is only grown, cut at the end and
/// read as a slice (see the module documentation).
#[derive(Debug)]
pub(crate) struct Scratch<T: Element> {
    memory: Memory<T>,
    len: usize,
}

impl<T: Element> Default for Scratch<T> {
    fn default() -> Self {
        Scratch { memory: Memory::Heap(Vec::new()), len: 0 }
    }
}

impl<T: Element> Scratch<T> {
    /// `len` zero elements.
    pub(crate) fn zeroed(len: usize) -> Self {
        #[cfg(target_os = "linux")]
        if let Some(map) = Self::mapped(len) {
            return Scratch { memory: Memory::Mapped(map), len };
        }
        Scratch { memory: Memory::Heap(vec![T::default(); len]), len }
    }

    /// A mapping for `len` elements that asks for huge pages, where it is large enough and
    /// the system gives one.
    #[cfg(target_os = "linux")]
    fn mapped(len: usize) -> Option<memmap2::MmapMut> {
        let bytes = len.checked_mul(size_of::<T>())?;
        if bytes < MAPPED_FROM {
            return None;
        }
        let map = memmap2::MmapMut::map_anon(bytes).ok()?;
        // Advice only: where the kernel refuses it (huge pages switched off), ordinary pages.
        let _ = map.advise(memmap2::Advice::HugePage);
        // A mapping is page-aligned and holds whole elements, so this always holds; checked
        // once here so that the views below never fail.
        bytemuck::try_cast_slice::<u8, T>(&map).is_ok().then_some(map)
    }

    /// The elements that fit the memory held.
    fn capacity(&self) -> usize {
        match &self.memory {
            Memory::Heap(vec) => vec.len(),
            #[cfg(target_os = "linux")]
            Memory::Mapped(map) => map.len() / size_of::<T>(),
        }
    }

    /// Grows to `len` elements (never shrinks), the new ones zero: in place where the memory
    /// holds them, else in new memory with the old elements copied.
    pub(crate) fn resize(&mut self, len: usize) {
        if len <= self.len {
            return;
        }
        if len > self.capacity() {
            let mut grown = Scratch::zeroed(len);
            grown[..self.len].copy_from_slice(self);
            *self = grown;
            return;
        }
        let old = self.len;
        self.len = len;
        self[old..].fill(T::default());
    }

    /// Keeps the first `len` elements.
    pub(crate) fn truncate(&mut self, len: usize) {
        self.len = self.len.min(len);
    }
}

impl<T: Element> Deref for Scratch<T> {
    type Target = [T];

    #[inline(always)]
    fn deref(&self) -> &[T] {
        let all: &[T] = match &self.memory {
            Memory::Heap(vec) => vec,
            // Checked when mapped (`mapped`): never the empty fallback.
            #[cfg(target_os = "linux")]
            Memory::Mapped(map) => bytemuck::try_cast_slice(map).unwrap_or_default(),
        };
        &all[..self.len]
    }
}

impl<T: Element> DerefMut for Scratch<T> {
    #[inline(always)]
    fn deref_mut(&mut self) -> &mut [T] {
        let all: &mut [T] = match &mut self.memory {
            Memory::Heap(vec) => vec,
            #[cfg(target_os = "linux")]
            Memory::Mapped(map) => bytemuck::try_cast_slice_mut(map).unwrap_or_default(),
        };
        &mut all[..self.len]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Small and mapped arrays alike start zeroed, keep their elements when they grow (within
    /// their memory and past it) and read back what was written.
    #[test]
    fn grows_keeping_its_elements() {
        for start in [10, MAPPED_FROM / 4 + 3] {
            let mut a = Scratch::<u32>::zeroed(start);
            assert_eq!(a.len(), start);
            assert!(a.iter().all(|&x| x == 0));
            for (i, x) in a.iter_mut().enumerate() {
                *x = i as u32;
            }
            a.resize(start * 3);
            assert_eq!(a.len(), start * 3);
            assert!(a[..start].iter().enumerate().all(|(i, &x)| x == i as u32));
            assert!(a[start..].iter().all(|&x| x == 0));
            a.truncate(start / 2);
            assert_eq!(a.len(), start / 2);
            // Grown again within its memory: the cut elements come back as zeros.
            a.resize(start);
            assert!(a[start / 2..].iter().all(|&x| x == 0));
            assert_eq!(a[start / 2 - 1], (start / 2 - 1) as u32);
        }
        let mut w = Scratch::<f64>::zeroed(MAPPED_FROM);
        w[MAPPED_FROM - 1] = 0.5;
        assert_eq!(w.iter().sum::<f64>(), 0.5);
        assert!(Scratch::<f64>::default().is_empty());
    }
}
