#include "tree/FlatOrder.h"

#include <algorithm>

namespace qflame {

std::vector<uint32_t> orderFlatRows(const FlatTable &table, const FlatOrderQuery &query)
{
    const std::vector<FlatRow> &rows = table.rows();
    std::vector<uint32_t> order;
    order.reserve(query.frameFilter ? 0 : rows.size());
    const std::vector<uint8_t> *filter = query.frameFilter.get();
    for (uint32_t i = 0; i < rows.size(); ++i) {
        const FrameId f = rows[i].frame;
        if (!filter || (f < filter->size() && (*filter)[f]))
            order.push_back(i);
    }
    auto sortBy = [&](auto less) {
        if (query.descending)
            std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return less(b, a); });
        else
            std::stable_sort(order.begin(), order.end(), less);
    };
    switch (query.key) {
    case FlatSortKey::Flat:
        if (!query.descending)   // descending is the table's order already
            sortBy([&](uint32_t a, uint32_t b) { return rows[a].flat < rows[b].flat; });
        break;
    case FlatSortKey::Cum:
        sortBy([&](uint32_t a, uint32_t b) { return rows[a].cum < rows[b].cum; });
        break;
    case FlatSortKey::Name:
        sortBy([&](uint32_t a, uint32_t b) {
            const int c = table.label(a).compare(table.label(b));
            return c != 0 ? c < 0 : rows[a].inlined < rows[b].inlined;
        });
        break;
    }
    return order;
}

}   // namespace qflame
