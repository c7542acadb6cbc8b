#include "disasm/Jumps.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <map>

namespace qflame {

namespace {

bool startsWith(const std::string &s, const char *p)
{
    return s.rfind(p, 0) == 0;
}

// x86's j*, AArch64's b, b.cond, cbz/cbnz, tbz/tbnz; Go's J* and B* spelled in capitals.
bool isJumpMnemonic(const std::string &m)
{
    std::string l = m;
    std::transform(l.begin(), l.end(), l.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    if (l.size() >= 2 && l[0] == 'j')
        return true;
    if (l == "b" || startsWith(l, "b.") || l == "cbz" || l == "cbnz" || l == "tbz" || l == "tbnz")
        return true;
    // Go's arm64 conditional branches: BEQ, BNE, BLT, ... (BL is a call).
    static const char *goConds[] = {"beq", "bne", "bcs", "bhs", "bcc", "blo", "bmi", "bpl", "bvs", "bvc",
                                    "bhi", "bls", "bge", "blt", "bgt", "ble"};
    const bool upper = !m.empty() && std::isupper(static_cast<unsigned char>(m[0]));
    return upper && std::find_if(std::begin(goConds), std::end(goConds), [&](const char *c) { return l == c; }) !=
                        std::end(goConds);
}

bool isCallMnemonic(const std::string &m)
{
    return m == "call" || m == "callq" || m == "bl" || m == "CALL" || m == "BL";
}

bool parseHex(std::string s, uint64_t &v)
{
    if (startsWith(s, "0x"))
        s = s.substr(2);
    if (s.empty() || s.size() > 16 || !std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isxdigit(c); }))
        return false;
    v = std::stoull(s, nullptr, 16);
    return true;
}

std::vector<std::string> words(const std::string &s)
{
    std::vector<std::string> out;
    size_t i = 0;
    while (i < s.size()) {
        while (i < s.size() && s[i] == ' ')
            ++i;
        const size_t j = s.find(' ', i);
        if (i < s.size())
            out.push_back(s.substr(i, j == std::string::npos ? std::string::npos : j - i));
        i = j == std::string::npos ? s.size() : j;
    }
    return out;
}

}   // namespace

void classifyBranch(Instruction &in, const std::string &routine, uint64_t start)
{
    in.branch = Instruction::Branch::None;
    in.target = 0;
    in.callee.clear();
    // binutils' "<main.spin+0xaa>" (a demangled name may hold spaces): the symbol, then the operands before it.
    std::string text = in.text, symbol;
    if (const size_t lt = text.find(" <"); lt != std::string::npos && !text.empty() && text.back() == '>') {
        symbol = text.substr(lt + 2, text.size() - lt - 3);
        text.erase(lt);
        if (const size_t plus = symbol.rfind("+0x"); plus != std::string::npos)
            symbol.erase(plus);
    }
    std::vector<std::string> w = words(text);
    // Prefixes binutils prints before the mnemonic.
    while (!w.empty() && (w.front() == "bnd" || w.front() == "notrack" || w.front() == "rep" || w.front() == "repz"))
        w.erase(w.begin());
    if (w.empty())
        return;
    const std::string &m = w.front();
    if (isCallMnemonic(m))
        in.branch = Instruction::Branch::Call;
    else if (isJumpMnemonic(m))
        in.branch = Instruction::Branch::Jump;
    else
        return;
    // The last operand: binutils' address (after AArch64's registers and bit number), Go's "0x4b21ca", or Go's
    // "main.spin(SB)" / "main.mix+16(SB)" (a symbol and an offset); a register or memory operand is indirect.
    std::string op = w.size() > 1 ? w.back() : std::string();
    uint64_t v = 0;
    if (op.size() > 4 && op.compare(op.size() - 4, 4, "(SB)") == 0) {
        std::string sym = op.substr(0, op.size() - 4);
        uint64_t off = 0;
        if (const size_t plus = sym.rfind('+'); plus != std::string::npos) {
            off = std::strtoull(sym.c_str() + plus + 1, nullptr, 0);
            sym.erase(plus);
        }
        symbol = sym;
        if (sym == routine)
            in.target = start + off;
    } else if (parseHex(op, v)) {
        in.target = v;
    }
    in.callee = symbol;
    if (in.branch == Instruction::Branch::Jump)
        in.callee.clear();
}

std::vector<JumpArrow> jumpArrows(const std::vector<uint64_t> &addresses, const std::vector<uint64_t> &jumpTargets)
{
    std::map<uint64_t, size_t> at;
    for (size_t i = 0; i < addresses.size(); ++i)
        at.emplace(addresses[i], i);
    std::vector<JumpArrow> arrows;
    for (size_t i = 0; i < addresses.size() && i < jumpTargets.size(); ++i) {
        if (jumpTargets[i] == 0)
            continue;
        const auto it = at.find(jumpTargets[i]);
        if (it != at.end() && it->second != i)
            arrows.push_back({i, it->second, 0});
    }
    auto span = [](const JumpArrow &a) { return a.from < a.to ? a.to - a.from : a.from - a.to; };
    std::vector<size_t> order(arrows.size());
    for (size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
        const size_t sa = span(arrows[a]), sb = span(arrows[b]);
        return sa != sb ? sa < sb : std::min(arrows[a].from, arrows[a].to) < std::min(arrows[b].from, arrows[b].to);
    });
    std::vector<std::vector<std::pair<size_t, size_t>>> lanes;   // the spans each lane holds
    for (size_t k : order) {
        JumpArrow &a = arrows[k];
        const size_t lo = std::min(a.from, a.to), hi = std::max(a.from, a.to);
        int lane = 0;
        for (;; ++lane) {
            if (size_t(lane) == lanes.size())
                lanes.emplace_back();
            const bool free = std::none_of(lanes[size_t(lane)].begin(), lanes[size_t(lane)].end(),
                                           [&](const auto &s) { return lo <= s.second && s.first <= hi; });
            if (free)
                break;
        }
        lanes[size_t(lane)].emplace_back(lo, hi);
        a.lane = lane;
    }
    return arrows;
}

std::string codeKey(const Instruction &in)
{
    if (in.branch != Instruction::Branch::None) {
        const std::vector<std::string> w = words(in.text);
        std::string key = w.empty() ? std::string() : w.front();
        if (in.branch == Instruction::Branch::Call)
            key += " " + in.callee;
        if (in.target == 0 && in.callee.empty())
            key = in.text;   // indirect: the register or memory operand is the code
        return key;
    }
    std::string s = in.text;
    if (const size_t hash = s.find(" # "); hash != std::string::npos)   // binutils' "# 4b5000 <sym>" comment
        s.erase(hash);
    if (const size_t lt = s.find(" <"); lt != std::string::npos && s.back() == '>')
        s.erase(lt);
    // "0x2e4f(%rip)": the displacement moves with the code.
    for (size_t rip = s.find("(%rip)"); rip != std::string::npos; rip = s.find("(%rip)", rip + 1)) {
        size_t b = rip;
        while (b > 0 && (std::isxdigit(static_cast<unsigned char>(s[b - 1])) || s[b - 1] == 'x' || s[b - 1] == '-'))
            --b;
        s.erase(b, rip - b);
        rip = b;
    }
    return s;
}

}   // namespace qflame
