// Column widths of the function tables (the profile's and the diff's) from the text of their first rows.
#pragma once

class QTableView;

namespace qflame {

// How many rows size the columns: the largest values come first, and laying out more rows only costs time.
inline constexpr int kRowsSizedToContents = 100;

// Sets each column to the widest of its header and the display text of the first `rows` rows, as
// QTableView::resizeColumnsToContents would. That asks the delegate for each cell's size hint, which lays the
// text out through the style (about 10 us a cell): 4-9 ms of the GUI thread on every load. Here the same text
// is measured with the view's font metrics, plus the style's item margins.
void sizeColumnsToText(QTableView *table, int rows = kRowsSizedToContents);

}   // namespace qflame
