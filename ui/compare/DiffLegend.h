// The diff's colour scale in real units (faster on the left, slower on the right, neutral in the middle) and the
// marks for noise, one-side frames and, when the PGO panel found any, inlining changes.
#pragma once

#include <QWidget>

namespace qflame {

class DiffSource;

class DiffLegend : public QWidget {
public:
    explicit DiffLegend(QWidget *parent = nullptr);
    // The bar and the swatches, so that it can sit beside the summary.
    QSize sizeHint() const override;
    void set(const DiffSource *source, bool colorBlindSafe);

    static constexpr int kBarWidth = 150;
    static constexpr int kSwatch = 20;

protected:
    void paintEvent(QPaintEvent *) override;

private:
    const DiffSource *m_source = nullptr;
    bool m_colorBlind = false;
};

}   // namespace qflame
