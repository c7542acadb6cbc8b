// The details panel: everything known about one frame of the flamegraph.
#pragma once

#include "layout/FlameLayout.h"

#include <QLabel>

namespace qflame {

class FrameDetails : public QLabel {
    Q_OBJECT

public:
    explicit FrameDetails(QWidget *parent = nullptr);
    // Shows node (or a hint when node < 0); `view` gives the "% of view" base.
    void showNode(const CallTree *tree, Viewport view, int64_t node);
};

}   // namespace qflame
