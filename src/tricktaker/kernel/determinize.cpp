// The void-aware determinizer (see determinize.hpp).
#include "determinize.hpp"

#include <algorithm>
#include <map>

namespace tk {

namespace {

// One of a node's options, drawn with the weights its cumulative totals give.
template <class NodeT> const auto &weighted_option(const NodeT &nd, Rng &rng) {
    double pick = rng.real() * nd.total;
    for (const auto &option : nd.options)
        if (pick < option.cumulative) return option;
    return nd.options.back();
}

double factorial(int n) {
    static double table[NCARDS + 1] = {0};
    if (table[0] == 0) {
        table[0] = 1;
        for (int i = 1; i <= NCARDS; ++i) table[i] = table[i - 1] * i;
    }
    return table[n];
}

// Moves ``take`` cards chosen uniformly from pool[0..size) to its front (partial shuffle).
void choose_front(int *pool, int size, int take, Rng &rng) {
    for (int i = 0; i < take; ++i) {
        int j = i + int(rng.below(uint32_t(size - i)));
        std::swap(pool[i], pool[j]);
    }
}

} // namespace

Determinizer::Determinizer(int players, const std::vector<int> &hidden, const int *counts,
                           const uint32_t *voids, uint64_t unknown, const int8_t *classes)
    : players_(players) {
    for (int s = 0; s < MAXP; ++s) counts_[s] = s < players ? counts[s] : 0;
    std::map<int, std::vector<int>> by_class;
    for (uint64_t m = unknown; m; m &= m - 1) {
        int card = lowest(m);
        by_class[classes[card]].push_back(card);
    }
    uint32_t present = 0;
    std::vector<int> class_ids;
    for (auto &entry : by_class) {
        present |= 1u << entry.first;
        class_ids.push_back(entry.first);
        class_cards_.push_back(entry.second);
    }
    std::map<uint32_t, std::vector<int>> by_void;
    int needed = 0;
    for (int s : hidden) {
        needed += counts_[s];
        uint32_t v = voids[s] & present;
        if (v && counts_[s] > 0)
            by_void[v].push_back(s);
        else
            free_seats_.push_back(s);
    }
    if (needed > popcount(unknown))
        throw std::invalid_argument("the observation shows more cards than the deck holds");
    for (auto &entry : by_void) {
        group_voids_.push_back(entry.first);
        groups_.push_back(entry.second);
    }
    size_t k_count = class_cards_.size();
    allowed_.resize(k_count);
    for (size_t k = 0; k < k_count; ++k)
        for (size_t g = 0; g < groups_.size(); ++g)
            if (!((group_voids_[g] >> class_ids[k]) & 1)) allowed_[k].push_back(int(g));
    left_.assign(k_count + 1, 0);
    for (int k = int(k_count) - 1; k >= 0; --k) left_[k] = left_[k + 1] + int(class_cards_[k].size());
    memo_.resize(k_count + 1);
    std::string room(groups_.size(), '\0');
    for (size_t g = 0; g < groups_.size(); ++g) {
        int total = 0;
        for (int s : groups_[g]) total += counts_[s];
        room[g] = char(total);
    }
    start_ = node(0, room);
    if (ways_[start_] <= 0.0)
        throw std::invalid_argument("no deal is consistent with the observation");
}

void Determinizer::splits(int k, const std::string &room, size_t i, int rest, std::string &cur,
                          double denom, std::vector<std::pair<std::string, double>> &out) const {
    const auto &allowed = allowed_[k];
    if (i == allowed.size()) {
        int used = 0;
        for (char c : room) used += uint8_t(c);
        int free_room = left_[k] - used;
        if (rest <= free_room)
            out.emplace_back(cur, factorial(int(class_cards_[k].size())) / (denom * factorial(rest)));
        return;
    }
    int b = allowed[i];
    int most = std::min(rest, int(uint8_t(cur[b])));
    for (int x = 0; x <= most; ++x) {
        cur[b] = char(uint8_t(cur[b]) - x);
        splits(k, room, i + 1, rest - x, cur, denom * factorial(x), out);
        cur[b] = char(uint8_t(cur[b]) + x);
    }
}

int Determinizer::node(int k, const std::string &room) {
    auto found = memo_[k].find(room);
    if (found != memo_[k].end()) return found->second;
    if (int(nodes_.size()) >= NODE_LIMIT)
        throw Unsupported("too many different known voids to count the deals");
    int index = int(nodes_.size());
    nodes_.emplace_back();
    ways_.push_back(0.0);
    memo_[k].emplace(room, index);
    if (k == int(class_cards_.size())) {
        bool empty = std::all_of(room.begin(), room.end(), [](char c) { return c == 0; });
        ways_[index] = empty ? 1.0 : 0.0;
        return index;
    }
    std::vector<std::pair<std::string, double>> options;
    std::string cur = room;
    splits(k, room, 0, int(class_cards_[k].size()), cur, 1.0, options);
    double total = 0.0;
    std::vector<Option> kept;
    for (auto &option : options) {
        int next = node(k + 1, option.first);
        double weight = option.second * ways_[next];
        if (weight <= 0.0) continue;
        total += weight;
        Option out{};
        out.next = next;
        out.cumulative = total;
        for (size_t g = 0; g < room.size(); ++g)
            out.take[g] = uint8_t(uint8_t(room[g]) - uint8_t(option.first[g]));
        kept.push_back(out);
    }
    nodes_[index].options = std::move(kept);
    nodes_[index].total = total;
    ways_[index] = total;
    return index;
}

void Determinizer::sample(Rng &rng, uint64_t *held) const {
    int grouped[MAXP][NCARDS];
    int grouped_len[MAXP] = {0};
    int free_pool[NCARDS], free_len = 0;
    int pool[NCARDS];
    int at = start_;
    for (size_t k = 0; k < class_cards_.size(); ++k) {
        const Node &nd = nodes_[at];
        const auto *chosen = &weighted_option(nd, rng);
        const auto &cards = class_cards_[k];
        int size = int(cards.size());
        std::copy(cards.begin(), cards.end(), pool);
        int taken = 0;
        for (size_t g = 0; g < groups_.size(); ++g) taken += chosen->take[g];
        choose_front(pool, size, taken, rng);
        int pos = 0;
        for (size_t g = 0; g < groups_.size(); ++g)
            for (int t = 0; t < chosen->take[g]; ++t) grouped[g][grouped_len[g]++] = pool[pos++];
        for (; pos < size; ++pos) free_pool[free_len++] = pool[pos];
        at = chosen->next;
    }
    for (size_t g = 0; g < groups_.size(); ++g) {
        int *cards = grouped[g];
        int len = grouped_len[g], pos = 0;
        // Split the bucket's cards uniformly among its seats.
        for (size_t i = 0; i + 1 < groups_[g].size(); ++i) {
            int s = groups_[g][i];
            choose_front(cards + pos, len - pos, counts_[s], rng);
            uint64_t mask = 0;
            for (int t = 0; t < counts_[s]; ++t) mask |= 1ULL << cards[pos + t];
            held[s] = mask;
            pos += counts_[s];
        }
        uint64_t mask = 0;
        for (; pos < len; ++pos) mask |= 1ULL << cards[pos];
        held[groups_[g].back()] = mask;
    }
    int pos = 0;
    for (int s : free_seats_) {
        choose_front(free_pool + pos, free_len - pos, counts_[s], rng);
        uint64_t mask = 0;
        for (int t = 0; t < counts_[s]; ++t) mask |= 1ULL << free_pool[pos + t];
        held[s] = mask;
        pos += counts_[s];
    }
}

void SplitSampler::check() const {
    if (nodes.empty()) throw std::invalid_argument("split sampler: no start node");
    for (const Node &nd : nodes) {
        if (nd.options.empty() || !(nd.total > 0.0))
            throw std::invalid_argument("split sampler: a node without a weighted option");
        for (const Option &o : nd.options)
            if (o.next < -1 || o.next >= int(nodes.size()) || o.list < 0 ||
                o.list >= int(lists.size()) || lists[size_t(o.list)].empty())
                throw std::invalid_argument("split sampler: an option out of range");
    }
    for (const auto &list : lists)
        for (uint64_t cards : list)
            if (cards & ~unknown) throw std::invalid_argument("split sampler: a card not unseen");
}

void SplitSampler::sample(Rng &rng, uint64_t *held) const {
    uint64_t taken = 0;
    int at = 0;
    for (int steps = 0; at >= 0 && steps <= int(nodes.size()); ++steps) {
        const Node &nd = nodes[size_t(at)];
        const auto *chosen = &weighted_option(nd, rng);
        const auto &list = lists[size_t(chosen->list)];
        taken |= list[list.size() == 1 ? 0 : rng.below(uint32_t(list.size()))];
        at = chosen->next;
    }
    held[first] = taken;
    held[second] = unknown & ~taken;
}

} // namespace tk
