// A pprof profile written location by location through the generated protobuf classes, for the cases folded
// stacks (ProfileFactory.h) cannot say: inlining, addresses, mappings, several sample types, empty stacks.
#pragma once

#include "pprof/Profile.h"
#include "formats/ProfileInput.h"

#include "profile.pb.h"

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace qflame::test {

class PprofMaker {
public:
    explicit PprofMaker(std::vector<std::pair<std::string, std::string>> types = {{"samples", "count"}})
    {
        s("");
        for (auto &[t, u] : types) {
            auto *vt = m_p.add_sample_type();
            vt->set_type(s(t));
            vt->set_unit(s(u));
        }
    }
    int64_t s(const std::string &str)
    {
        auto it = m_strings.find(str);
        if (it != m_strings.end())
            return it->second;
        m_p.add_string_table(str);
        return m_strings[str] = m_p.string_table_size() - 1;
    }
    uint64_t mapping(const std::string &file)
    {
        auto *m = m_p.add_mapping();
        m->set_id(uint64_t(m_p.mapping_size()));
        m->set_filename(s(file));
        return m->id();
    }
    uint64_t fn(const std::string &name, const std::string &file = "", int64_t startLine = 0)
    {
        auto *f = m_p.add_function();
        f->set_id(uint64_t(m_p.function_size()));
        f->set_name(s(name));
        f->set_filename(s(file));
        f->set_start_line(startLine);
        return f->id();
    }
    // Lines innermost first: {function id, line}.
    uint64_t loc(std::vector<std::pair<uint64_t, int64_t>> lines, uint64_t address = 0, uint64_t mapping = 0)
    {
        auto *l = m_p.add_location();
        l->set_id(uint64_t(m_p.location_size()));
        l->set_address(address);
        l->set_mapping_id(mapping);
        for (auto [f, line] : lines) {
            auto *ln = l->add_line();
            ln->set_function_id(f);
            ln->set_line(line);
        }
        return l->id();
    }
    // Lines innermost first, by function id alone (line 0): a function inlined into the next.
    uint64_t locOf(const std::vector<uint64_t> &functions)
    {
        std::vector<std::pair<uint64_t, int64_t>> lines;
        for (uint64_t f : functions)
            lines.emplace_back(f, 0);
        return loc(std::move(lines));
    }
    // A location of one function line per name, created once per name.
    uint64_t at(const std::string &name)
    {
        auto it = m_simple.find(name);
        if (it != m_simple.end())
            return it->second;
        return m_simple[name] = loc({{fn(name), 0}});
    }
    // Locations leaf first.
    void sample(std::vector<uint64_t> locs, std::vector<int64_t> values)
    {
        auto *smp = m_p.add_sample();
        for (uint64_t l : locs)
            smp->add_location_id(l);
        for (int64_t v : values)
            smp->add_value(v);
    }
    // "main;a;b" root first, like folded stacks; one value per sample type.
    void stack(const std::string &folded, int64_t value) { stack(folded, std::vector<int64_t>{value}); }
    void stack(const std::string &folded, std::vector<int64_t> values)
    {
        std::vector<uint64_t> locs;
        size_t start = 0;
        while (start <= folded.size()) {
            size_t end = folded.find(';', start);
            if (end == std::string::npos)
                end = folded.size();
            locs.insert(locs.begin(), at(folded.substr(start, end - start)));
            start = end + 1;
        }
        sample(locs, std::move(values));
    }
    perftools::profiles::Profile &proto() { return m_p; }
    std::shared_ptr<const Profile> profile(const std::string &name = "made")
    {
        return readPprof(m_p.SerializeAsString(), name);
    }

private:
    perftools::profiles::Profile m_p;
    std::map<std::string, int64_t> m_strings;
    std::map<std::string, uint64_t> m_simple;
};

}   // namespace qflame::test
