// The record of the last full corpus check (`corpus/checked.tsv`): which kernels passed, with a
// hash of their files. In `common` rather than `common_core` because it hashes with OpenSSL.
#pragma once

#include <filesystem>
#include <map>
#include <set>
#include <string>

#include "common/manifest.h"
#include "common/result.h"

namespace hpcab {

// The record of the last full check (`corpus/checked.tsv`, written by `make corpus-check`): one
// line per kernel that passed, "<id>\t<content hash>". `make test` checks a fixed sample plus
// every kernel whose files no longer match their recorded hash (new or edited since), so the
// whole corpus need not be checked on every run.
using CheckRecord = std::map<std::string, std::string>;  // id -> content hash

// SHA-256 (hex) over the kernel's files that define it: kernel.json, reference.py and, where it
// has one, reference.c (each name, length and contents), so an edit to any of them shows.
Result<std::string> kernel_content_hash(const Manifest& m);

// A missing file is an empty record; a malformed line is an error naming it.
Result<CheckRecord> read_check_record(const std::filesystem::path& file);
// The record after a check of the kernels `checked`, of which `passed` (id -> hash) passed:
// a kernel that passed takes its new hash, one checked that failed leaves the record, one not
// checked keeps its line, and an id no longer in `corpus_ids` leaves it. Pure.
CheckRecord updated_check_record(const CheckRecord& old, const CheckRecord& passed,
                                 const std::set<std::string>& checked,
                                 const std::set<std::string>& corpus_ids);

// Sorted by id, written to a temporary file renamed over `file` (never left half-written).
Status write_check_record(const std::filesystem::path& file, const CheckRecord& record);

}  // namespace hpcab
