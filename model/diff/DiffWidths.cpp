#include "diff/DiffWidths.h"

#include <algorithm>

namespace qflame {

std::vector<double> diffWidths(const DiffTree &d, DiffWidth width)
{
    std::vector<double> w(d.size());
    for (NodeId n = 0; n < d.size(); ++n) {
        switch (width) {
        case DiffWidth::Max: w[n] = std::max(d.beforeTotal(n), d.afterTotal(n)); break;
        case DiffWidth::Comparison: w[n] = d.afterTotal(n); break;
        case DiffWidth::Baseline: w[n] = d.beforeTotal(n); break;
        }
    }
    if (width == DiffWidth::Max) {
        // max(before, after) of the children can add up to more than the parent's max (one child grew while
        // another shrank): widen parents bottom-up, children having higher ids, so every frame sits inside its
        // parent. Where nothing overflows, the width is exactly max(before, after).
        std::vector<double> childSum(d.size(), 0);
        for (NodeId n = NodeId(d.size()); n-- > 1;) {
            w[n] = std::max(w[n], childSum[n]);
            childSum[d.parent(n)] += w[n];
        }
        w[0] = std::max(w[0], childSum[0]);
    }
    return w;
}

}   // namespace qflame
