#include "export/SpeedscopeWriter.h"

#include <cstdio>
#include <vector>

namespace qflame {

namespace {

// A JSON string: the label's bytes with quotes, backslashes and control characters escaped. Names are UTF-8
// in practice; other bytes pass through, as the folded writer passes them.
void appendJsonString(std::string &out, const std::string &s)
{
    out += '"';
    for (const char c : s) {
        switch (c) {
        case '"': out += "\\\""; break;
        case '\\': out += "\\\\"; break;
        case '\n': out += "\\n"; break;
        case '\r': out += "\\r"; break;
        case '\t': out += "\\t"; break;
        default:
            if (uint8_t(c) < 0x20) {
                char buf[8];
                std::snprintf(buf, sizeof buf, "\\u%04x", unsigned(uint8_t(c)));
                out += buf;
            } else {
                out += c;
            }
        }
    }
    out += '"';
}

const char *speedscopeUnit(const std::string &unit)
{
    for (const char *u : {"nanoseconds", "microseconds", "milliseconds", "seconds", "bytes"})
        if (unit == u)
            return u;
    return "none";
}

}   // namespace

std::string writeSpeedscope(const CallTree &tree, const std::string &name)
{
    std::vector<int64_t> indexOf(tree.frames().size(), -1);   // FrameId -> shared frame index
    std::vector<FrameId> frames;
    std::string samples, weights;
    int64_t total = 0;
    auto addSample = [&](const std::vector<FrameId> &stack, int64_t weight) {
        samples += samples.empty() ? "[" : ",[";
        for (size_t k = 0; k < stack.size(); ++k) {
            int64_t &i = indexOf[stack[k]];
            if (i < 0) {
                i = int64_t(frames.size());
                frames.push_back(stack[k]);
            }
            if (k)
                samples += ',';
            samples += std::to_string(i);
        }
        samples += ']';
        weights += (weights.empty() ? "" : ",") + std::to_string(weight);
        total += weight;
    };
    std::vector<FrameId> stack;
    if (tree.self(CallTree::kRoot) != 0)
        addSample(stack, tree.self(CallTree::kRoot));
    // Depth first with an explicit stack of (node, depth), children in the tree's order.
    std::vector<std::pair<NodeId, size_t>> todo;
    const NodeId first = tree.firstChild(CallTree::kRoot);
    for (uint32_t i = tree.childCount(CallTree::kRoot); i-- > 0;)
        todo.push_back({NodeId(first + i), 0});
    while (!todo.empty()) {
        const auto [node, depth] = todo.back();
        todo.pop_back();
        stack.resize(depth);
        stack.push_back(tree.frame(node));
        if (tree.self(node) != 0)
            addSample(stack, tree.self(node));
        const NodeId c = tree.firstChild(node);
        for (uint32_t i = tree.childCount(node); i-- > 0;)
            todo.push_back({NodeId(c + i), depth + 1});
    }

    std::string out = "{\"$schema\":\"https://www.speedscope.app/file-format-schema.json\",\"exporter\":\"qflame\",";
    out += "\"name\":";
    appendJsonString(out, name);
    out += ",\"activeProfileIndex\":0,\"shared\":{\"frames\":[";
    for (size_t i = 0; i < frames.size(); ++i) {
        out += i ? ",{\"name\":" : "{\"name\":";
        appendJsonString(out, tree.frames().label(frames[i]));
        out += '}';
    }
    out += "]},\"profiles\":[{\"type\":\"sampled\",\"name\":";
    appendJsonString(out, name);
    out += ",\"unit\":\"";
    out += speedscopeUnit(tree.sampleType().unit);
    out += "\",\"startValue\":0,\"endValue\":" + std::to_string(total);
    out += ",\"samples\":[" + samples + "],\"weights\":[" + weights + "]}]}\n";
    return out;
}

}   // namespace qflame
