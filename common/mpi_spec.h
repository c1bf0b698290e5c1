// The distributed residency's declaration in a kernel manifest (kernel.json's "mpi" block,
// docs/corpus.md "The mpi block", docs/grading.md "Distributed residency"): which rank counts P
// the kernel is graded at, how its sizes grow under weak scaling, and how the judge splits each
// array across the ranks. A kernel without the block has no distributed residency; its
// single-node grading is the same either way.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace hpcab {

// How the judge hands one array to the ranks (and, for an output, takes it back).
struct MpiDistribution {
  enum class Kind {
    // Split along `axis` in contiguous blocks: rank r of P holds indices
    // [floor(r*n/P), floor((r+1)*n/P)) of that axis (block_range, common/scaling.h), the other
    // axes whole. An output is gathered from every rank's block.
    kBlock,
    // Every rank holds the whole array; an output is taken from rank 0 (the ranks must agree
    // there, e.g. after a reduction to the root).
    kReplicated,
  };
  Kind kind = Kind::kReplicated;
  int axis = 0;  // kBlock only
};

struct MpiSpec {
  // The rank counts the kernel is graded at, ascending and distinct; always holds 1 (the
  // one-PE point every efficiency is measured against).
  std::vector<int> ranks;
  // Weak scaling: size symbol -> k, the symbol multiplied by P^(1/k) at P ranks, so a kernel
  // whose work grows like N^k keeps its work per rank. Weak scaling is defined at the P of
  // `ranks` that are perfect k-th powers of an integer for every k (weak_ranks); empty: the
  // kernel has only strong scaling.
  std::map<std::string, int> weak;
  // Array name -> distribution; arrays not named are replicated.
  std::map<std::string, MpiDistribution> distribution;

  // How `array` is distributed: its entry, or replicated.
  MpiDistribution of(const std::string& array) const {
    auto it = distribution.find(array);
    return it == distribution.end() ? MpiDistribution{} : it->second;
  }
};

// The largest rank count a manifest may declare, and the largest weak-scaling root k.
inline constexpr int kMaxMpiRanks = 1024;
inline constexpr int kMaxWeakRoot = 3;

}  // namespace hpcab
