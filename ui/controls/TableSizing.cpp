#include "controls/TableSizing.h"

#include <QFontMetricsF>
#include <QHeaderView>
#include <QStyle>
#include <QTableView>

#include <algorithm>
#include <cmath>

namespace qflame {

void sizeColumnsToText(QTableView *table, int rows)
{
    const QAbstractItemModel *model = table->model();
    if (!model)
        return;
    QHeaderView *header = table->horizontalHeader();
    const QFontMetricsF fm(table->font());
    // What QCommonStyle adds around an item view's text (CT_ItemViewItem), and the grid line of the cell.
    const int margin = 2 * (table->style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, table) + 1) +
                       (table->showGrid() ? 1 : 0);
    const int n = std::min(rows, model->rowCount());
    for (int c = 0; c < model->columnCount(); ++c) {
        if (header->isSectionHidden(c))
            continue;
        int width = header->sectionSizeHint(c);
        for (int r = 0; r < n; ++r) {
            const qreal text = fm.horizontalAdvance(model->index(r, c).data().toString());
            width = std::max(width, int(std::ceil(text)) + margin);
        }
        header->resizeSection(c, width);
    }
}

}   // namespace qflame
