// The flamegraph: paints a FlameLayout with QPainter (no item per frame), flame (root at the bottom) or icicle.
//
// Frames are painted straight into the window's backing store, only where Qt asks for them: a hover or selection
// change repaints the frames under the two outlines that change, so pointer feedback never waits on a repaint
// of the whole view.
#pragma once

#include "flame/FlamePainter.h"
#include "flame/FlameSource.h"

#include <QWidget>

#include <memory>
#include <optional>
#include <vector>

namespace qflame {

class FlameGraphWidget : public QWidget {
    Q_OBJECT

public:
    // The keys keyPressEvent and mousePressEvent handle, as (keys, what they do), for Help > Keyboard Shortcuts.
    static QList<QPair<QString, QString>> keyBindings();
    enum class Orientation { Flame, Icicle };

    explicit FlameGraphWidget(QWidget *parent = nullptr);

    // `layout`: the tree's, when laid out already (see CallTreeSource).
    void setTree(std::shared_ptr<const CallTree> tree, std::shared_ptr<const FlameLayout> layout = {});
    void setSource(std::shared_ptr<const FlameSource> source);
    // While a first look of a large tree is shown (tree/StagedTree.h), zooming waits for the whole tree: at
    // another zoom, frames still to come could be a pixel wide. Zoom, back and forward asked for meanwhile are
    // kept and done, in order, by replaceSource.
    void setProvisional(bool on);
    bool isProvisional() const { return m_provisional; }
    // Shows `source` in place of the first look shown, in the same state: `map` takes each node of the first
    // look to the same node of `source` (zoom, history, selection, hover); its layout has the same offsets and
    // widths for those nodes, so the viewport stays as it is.
    void replaceSource(std::shared_ptr<const FlameSource> source, const std::vector<NodeId> &map);
    const FlameSource *source() const { return m_source.get(); }
    // The call tree shown, when a call tree is shown (not a diff).
    const CallTree *tree() const { return m_source ? m_source->callTree() : nullptr; }
    // What an empty graph says (a local tab: how to open a file; a qryn tab: how to load a range).
    void setPlaceholderText(const QString &text);
    QString placeholderText() const { return m_placeholder; }   // "" for the default
    const FlameLayout *layout() const { return m_layout; }

    // Zoom: the node whose extent fills the width (the root when not zoomed), and the viewport in cost units.
    NodeId zoomRoot() const { return m_zoom; }
    Viewport viewport() const { return m_view; }
    void zoomTo(NodeId node);             // pushes the current state on the back history
    void zoomViewport(double factor);     // +/-: narrows (factor < 1) or widens the viewport around its centre
    // Sets zoom node and viewport without touching history: for views that follow another one.
    void showState(NodeId zoom, Viewport view);
    bool canGoBack() const { return !m_back.empty(); }
    bool canGoForward() const { return !m_forward.empty(); }
    void back();
    void forward();
    void resetZoom();

    Orientation orientation() const { return m_orientation; }
    void setOrientation(Orientation o);
    ColorScheme colorScheme() const { return m_scheme; }
    void setColorScheme(ColorScheme scheme);
    bool colorBlindSafe() const { return m_colorBlind; }
    void setColorBlindSafe(bool on);

    // Search: frames flagged in `matches` (indexed by FrameId) keep their colour, the rest are dimmed. Empty
    // clears the search.
    void setMatches(std::vector<uint8_t> matches);
    const std::vector<uint8_t> &matches() const { return m_matches; }
    // Moves the selection to the next (+1) or previous (-1) matching node, in left-to-right order.
    bool selectNextMatch(int direction);
    // Frames sharing this frame id get an outline (the top table's selection).
    void setHighlightedFrame(std::optional<FrameId> frame);

    int64_t selectedNode() const { return m_selected; }
    void setSelectedNode(int64_t node);

    int rowHeight() const { return m_rowHeight; }
    // The node painted under a point of this widget, or -1.
    int64_t nodeAt(QPoint pos) const;
    // The rectangle a node is painted in (empty when it is outside the viewport).
    QRectF nodeRect(NodeId node) const;
    // Text of the hover tooltip for a node: full name, self, total, shares, in the sample unit.
    QString describe(NodeId node) const;
    // The colour a frame is filled with under the current scheme (before search dimming).
    QColor frameColor(NodeId node) const;

    // The whole graph (every level) at the given width, from the same painting code as the screen.
    QImage renderImage(int width) const;
    bool writeSvg(const QString &path, int width) const;

    QSize sizeHint() const override;

Q_SIGNALS:
    void zoomChanged(qflame::NodeId node);
    void hovered(qflame::NodeId node);            // kRoot when nothing is hovered
    void selectionChanged(qflame::NodeId node);   // kRoot when nothing is selected
    void frameActivated(qflame::FrameId frame);
    void ensureVisibleRequested(QRect area);
    void orientationChanged();   // the rows are now upside down: y became height() - y - rowHeight()
    void contextMenuRequested(qflame::NodeId node, QPoint globalPos);
    void painted();   // a paint of frames has ended (not of the placeholder text)

protected:
    void paintEvent(QPaintEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void contextMenuEvent(QContextMenuEvent *event) override;
    void leaveEvent(QEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;
    bool event(QEvent *event) override;
    void changeEvent(QEvent *event) override;

private:
    struct State {
        Viewport view;
        NodeId zoom;
    };
    int depthAtY(int y) const;
    int yOfDepth(uint32_t depth) const;
    void setState(State s);
    void pushHistory();
    void setHover(int64_t node);
    void invalidate();
    FlamePainter painter() const;   // the painting state of this view
    void updateNode(int64_t node);
    void moveSelection(int key);
    PaintOptions paintOptions() const;

    std::shared_ptr<const FlameSource> m_source;
    const FlameLayout *m_layout = nullptr;   // m_source's
    Viewport m_view;
    NodeId m_zoom = CallTree::kRoot;
    std::vector<State> m_back, m_forward;
    int64_t m_hover = -1;
    int64_t m_selected = -1;
    std::optional<FrameId> m_highlight;
    std::vector<uint8_t> m_matches;
    Orientation m_orientation = Orientation::Flame;
    ColorScheme m_scheme = ColorScheme::Package;
    bool m_colorBlind = false;
    int m_rowHeight = 18;
    QString m_placeholder;
    mutable LabelCache m_labelCache;             // per frame, filled lazily
    // Zooming asked for while provisional: a node to zoom to, a viewport factor, back or forward.
    struct PendingZoom {
        enum Kind { To, Factor, Back, Forward } kind;
        NodeId node = 0;
        double factor = 1;
    };
    bool m_provisional = false;
    std::vector<PendingZoom> m_pendingZooms;
};

}   // namespace qflame
