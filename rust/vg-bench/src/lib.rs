// SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause
//! Nothing: the benchmarks are benches/aead.rs (criterion) and benches/ab.rs (alternating rounds).
