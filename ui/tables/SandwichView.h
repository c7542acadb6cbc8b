// A function's sandwich: who calls it (callers stacked above it) and what it calls (callees hanging below),
// merged over all call sites, each counted once per sample.
#pragma once

#include "tree/Sandwich.h"

#include <QWidget>

class QLabel;

namespace qflame {

class FlameView;

class SandwichView : public QWidget {
    Q_OBJECT

public:
    explicit SandwichView(QWidget *parent = nullptr);
    void showFunction(const CallTree &tree, FrameId frame);
    void clear();
    const Sandwich &sandwich() const { return m_sandwich; }
    FlameView *callersView() const { return m_callers; }
    FlameView *calleesView() const { return m_callees; }
    QString titleText() const;

private:
    Sandwich m_sandwich;
    QLabel *m_title;
    FlameView *m_callers;
    FlameView *m_callees;
};

}   // namespace qflame
