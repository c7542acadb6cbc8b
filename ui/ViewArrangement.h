// A tab's arrangement of its frames: label values as frames (pprof's -tagroot/-tagleaf) and bottom-up. View >
// Group by Label... and View > Bottom-up set it on the current profile or comparison tab; each tab keeps its own,
// and its changes join the tab's view history: View > Back, once the flamegraph has no zoom to go back to,
// puts the arrangement before the last change back.
#pragma once

#include "tree/SampleFilter.h"

#include <QDialog>
#include <QHash>
#include <QObject>

#include <vector>

class QLineEdit;
class QRadioButton;

namespace qflame {

class DocumentPane;

struct Arrangement {
    std::string tagRoot, tagLeaf;
    bool inverted = false;
    bool operator==(const Arrangement &) const = default;
};

// The arrangement of a profile or comparison tab; nothing for other tabs.
std::optional<Arrangement> arrangementOf(DocumentPane *pane);

class ArrangementHistory : public QObject {
    Q_OBJECT

public:
    explicit ArrangementHistory(QObject *parent = nullptr) : QObject(parent) {}
    // Sets `to` on the pane (building its tree again), remembering what it had; false for other tabs.
    bool change(DocumentPane *pane, const Arrangement &to);
    // Puts the pane's previous arrangement back; false when there is none.
    bool back(DocumentPane *pane);
    bool canGoBack(DocumentPane *pane) const { return !m_before.value(pane).empty(); }

private:
    static void apply(DocumentPane *pane, const Arrangement &a);
    QHash<DocumentPane *, std::vector<Arrangement>> m_before;
};

// View > Group by Label...: label keys (comma-separated) and whether their values are frames at the root (the
// whole profile split by each value) or at the leaves.
class GroupByLabelDialog : public QDialog {
    Q_OBJECT

public:
    explicit GroupByLabelDialog(const Arrangement &current, QWidget *parent = nullptr);
    // The arrangement asked for: the keys at the root or the leaves (the other side cleared), bottom-up kept.
    Arrangement arrangement() const;
    QLineEdit *keysEdit() const { return m_keys; }
    QRadioButton *leafButton() const { return m_leaf; }

private:
    Arrangement m_current;
    QLineEdit *m_keys;
    QRadioButton *m_root, *m_leaf;
};

}   // namespace qflame
