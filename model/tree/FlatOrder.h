// Which rows of a FlatTable the top table shows, and in what order: sorted by one column and limited to the
// frames a search matched. Computed off the GUI thread (sorting 400,000 names takes a tenth of a second), so
// that the table model only maps its rows through the result.
#pragma once

#include "tree/FlatTable.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace qflame {

enum class FlatSortKey : uint8_t { Flat, Cum, Name };

struct FlatOrderQuery {
    FlatSortKey key = FlatSortKey::Flat;
    bool descending = true;
    // Per FrameId, non-zero for the frames to show (a search's matches); null shows every row.
    std::shared_ptr<const std::vector<uint8_t>> frameFilter;

    // The table's own order (flat descending, then cum descending, then label) and every row: no work at all.
    bool isTableOrder() const { return key == FlatSortKey::Flat && descending && !frameFilter; }
};

// Indices into table.rows(), in the order shown. The sort is stable over the table's order in both
// directions, so rows that tie keep it (as QSortFilterProxyModel would). Name sorts by the label's bytes,
// then plain before "(inline)" before "(partial-inline)". Frames beyond the filter's size are not shown.
std::vector<uint32_t> orderFlatRows(const FlatTable &table, const FlatOrderQuery &query);

}   // namespace qflame
