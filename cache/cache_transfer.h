// Moving tuning results between cache files: exporting a selection of a cache into a new self-contained bundle,
// and merging one cache into another (which is also how a bundle is imported). Both keep every rule of the cache:
// entries of other devices and provenances are never touched, a selection only replaces a worse one of the same
// device, problem and provenance, and a failed operation leaves its target as it was.
#pragma once

#include <string>
#include <vector>

#include "cache/cache_records.h"
#include "cache/tuning_cache.h"

namespace jitgemm::cache {

// Which selections an export (or a listing) takes. Empty fields match everything; the fields that are given must
// all match.
struct SelectionFilter {
    std::string device;   // substring of the device fingerprint, e.g. "H200"
    std::string dtype;    // prefix of the problem key's dtype part, whole dot-separated names only: "f32" or
                          // "f32.f32" match "f32.f32.f32.f32", "f3" does not
    std::string shape;    // "MxNxK": matches keys containing "_m<M>.n<N>.k<K>_" (the canonical column-major form)
    std::string problem;  // substring of the problem key
    // Throws Error(CacheError) when `shape` is given but is not three decimal numbers joined by 'x'.
    bool matches(const SelectionRecord& s) const;
};

// What an export or a merge did, counted per record of the source.
struct TransferReport {
    int selections_added = 0, selections_replaced = 0, selections_kept = 0;  // kept: the target's was better
    int cubins_added = 0, measurements_added = 0, measurements_duplicate = 0;
    int untuned_added = 0, untuned_updated = 0, ceilings_added = 0;
    int ceilings_replaced = 0;  // the source's measurement of the ceiling was newer
    int cubins_repaired = 0;    // the target's cubin of the key failed its checks; the source's sound one replaced it
    // Records of the source not copied because they cannot be trusted (cache/cubin_check.h, cache/record_sanity.h);
    // a selection whose cubin was refused is refused with it.
    int cubins_rejected = 0, selections_rejected = 0, measurements_rejected = 0, ceilings_rejected = 0;
    std::vector<std::string> rejections;  // one line per refused record: what it was and why
    // One line: "12 selections added, 1 replaced, 0 kept; 13 cubins; 480 measurements (0 duplicates); 2 untuned
    // problems added, 0 updated; 4 ceilings added, 0 replaced", then what was repaired and refused, when anything was.
    std::string describe() const;
};

// Writes a new self-contained bundle file (journal_mode=DELETE, so it is one file that can be opened read-only and
// immutable) holding the selections that match, their cubins and the run-time-shape variants of their configurations
// (cache_records.h), and the measurements and untuned records of the same (device, problem, provenance), plus all
// ceilings of the matching devices (the devices of the selections taken).
// A filter with every field empty takes the whole cache instead, with the records no selection refers to (cubins of
// heuristic defaults, measurements of searches that found no winner, problems never tuned, ceilings of any
// device), so that exporting everything and importing it copies a cache exactly.
//
// Refuses (CacheError) to overwrite an existing file, and a matching selection whose cubin is missing (the bundle
// would not be usable). A failure leaves no partial file behind: the bundle is written to "<path>.partial", created
// exclusively (a leftover of an interrupted export is reported, not reused), and renamed into place when complete.
// The report counts what the bundle holds.
TransferReport export_bundle(const TuningCache& source, const std::string& bundle_path, const SelectionFilter& filter);

// Brings everything of `source` into `target` in one transaction:
//  - every cubin, by key (an equal key is an identical binary: present ones are left as they are), except that a
//    cubin failing cache/cubin_check.h's checks is never copied, and a target's cubin failing them is replaced by the
//    source's sound one;
//  - every measurement: one equal in every field (device, problem, config, outcome, time, detail, provenance and
//    measured_at) to one already in the target is counted as a duplicate and skipped, so the target ends with as
//    many copies of each measurement as the larger of the two holds and merging twice changes nothing;
//  - every selection, by record_tuning's keep-the-better rule per (device, problem, provenance); entries of other
//    devices or provenances are never touched, and a replaced selection's cubin and measurements stay. A selection
//    whose values are impossible (cache/record_sanity.h), whose cubin was refused, or whose cubin is of another
//    configuration is not copied; neither are impossible measurements and ceilings;
//  - untuned records, per (device, problem, provenance): calls is the larger of the two counts (not their sum: the
//    same bundle is often merged more than once, or carries counts that came from the target, and a sum would count
//    those calls again; the price is that calls seen independently by both are under-counted), first_seen the
//    earlier and last_seen the later time;
//  - ceilings, per (device, driver, name): the later measured_at wins; on a tie the target's value stays.
// A selection of `source` whose cubin is missing in `source` is a CacheError naming it, and nothing is merged. A
// source of an older schema opened ReadOnly works: its missing tables read as empty.
TransferReport merge_into(TuningCache& target, const TuningCache& source);

}  // namespace jitgemm::cache
