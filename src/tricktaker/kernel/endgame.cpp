// The exact endgame (see endgame.hpp).
#include "endgame.hpp"

#include <algorithm>

namespace tk {

namespace {

constexpr size_t FIRST_ENTRIES = size_t(1) << 10;
constexpr size_t MOST_ENTRIES = size_t(1) << 18; // the memo stops growing here

inline uint64_t mix(uint64_t cards, uint64_t summary) {
    uint64_t z = cards ^ (summary * 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

} // namespace

void rival_rewards(const Config &cfg, double rivalry, double *reward) {
    if (rivalry == 0.0 || cfg.cooperative || cfg.players < 2) return;
    double total = 0.0;
    for (int s = 0; s < cfg.players; ++s) total += reward[s];
    for (int s = 0; s < cfg.players; ++s)
        reward[s] = (1.0 + rivalry / (cfg.players - 1)) * reward[s] -
                    rivalry * total / (cfg.players - 1);
}

bool endgame_fits(const Config &cfg, const State &st, int most_tricks) {
    if (st.phase != PLAYING) return false;
    int left = cfg.hand_size - st.tricks_done;
    if (left < 1 || left > most_tricks || left > MAX_ENDGAME_TRICKS) return false;
    for (int s = 0; s < cfg.players; ++s) {
        if (!((cfg.active >> s) & 1)) continue;
        bool played = false;
        for (int i = 0; i < st.trick_len; ++i) played = played || st.trick_seat[i] == s;
        if (popcount(st.hands[s]) != left - (played ? 1 : 0)) return false;
    }
    return true;
}

Endgame::Endgame(const Config &cfg, double rivalry, long node_limit)
    : cfg_(cfg), rivalry_(rivalry), node_limit_(node_limit) {
    for (int points : cfg.trick_points) by_winner_ = by_winner_ || points != 0;
}

bool Endgame::solve(const State &st, double *out, int *move) {
    if (!endgame_fits(cfg_, st, MAX_ENDGAME_TRICKS))
        throw BadInput("the endgame solves card play with at most " +
                       std::to_string(MAX_ENDGAME_TRICKS) +
                       " tricks left, each seat holding the cards it has to play");
    root_ = st;
    nodes_ = 0;
    exhausted_ = false;
    used_ = 0;
    if (++stamp_ == 0) { // after 2**32 solves: forget every stamp
        for (Entry &entry : entries_) entry.stamp = 0;
        stamp_ = 1;
    }
    double values[MAXP];
    value(st, 0, values, move);
    if (exhausted_) return false;
    std::copy(values, values + cfg_.players, out);
    return true;
}

uint64_t Endgame::summary(const State &st, uint64_t winners) const {
    uint64_t key = uint64_t(st.leader) << 60;
    if (by_winner_) return key | winners; // 4 bits a trick, at most 7 tricks
    for (int s = 0; s < cfg_.players; ++s)
        key |= uint64_t(st.tricks[s] - root_.tricks[s]) << (3 * s);
    return key;
}

const double *Endgame::find(uint64_t cards, uint64_t summary) const {
    if (entries_.empty()) return nullptr;
    size_t mask = entries_.size() - 1;
    for (size_t i = mix(cards, summary) & mask;; i = (i + 1) & mask) {
        const Entry &entry = entries_[i];
        if (entry.stamp != stamp_) return nullptr;
        if (entry.cards == cards && entry.summary == summary)
            return &values_[i * size_t(cfg_.players)];
    }
}

void Endgame::store(uint64_t cards, uint64_t summary, const double *values) {
    if (2 * (used_ + 1) > entries_.size()) {
        if (entries_.size() >= MOST_ENTRIES) return; // full: solve on without remembering
        grow();
    }
    size_t mask = entries_.size() - 1;
    size_t i = mix(cards, summary) & mask;
    while (entries_[i].stamp == stamp_) i = (i + 1) & mask;
    entries_[i] = {cards, summary, stamp_};
    std::copy(values, values + cfg_.players, &values_[i * size_t(cfg_.players)]);
    ++used_;
}

void Endgame::grow() {
    std::vector<Entry> old_entries = std::move(entries_);
    std::vector<double> old_values = std::move(values_);
    size_t size = old_entries.empty() ? FIRST_ENTRIES : 2 * old_entries.size();
    entries_.assign(size, Entry{});
    values_.assign(size * size_t(cfg_.players), 0.0);
    used_ = 0;
    for (size_t i = 0; i < old_entries.size(); ++i)
        if (old_entries[i].stamp == stamp_)
            store(old_entries[i].cards, old_entries[i].summary,
                  &old_values[i * size_t(cfg_.players)]);
}

void Endgame::value(const State &st, uint64_t winners, double *out, int *move) {
    const int n = cfg_.players;
    if (st.phase == OVER) {
        rewards(cfg_, st, out);
        rival_rewards(cfg_, rivalry_, out);
        return;
    }
    if (++nodes_ > node_limit_) exhausted_ = true;
    if (exhausted_) return;
    const bool remembered = st.trick_len == 0 && st.tricks_done > root_.tricks_done;
    uint64_t cards = 0, key = 0;
    if (remembered) {
        for (int s = 0; s < n; ++s) cards |= st.hands[s];
        key = summary(st, winners);
        if (const double *known = find(cards, key)) {
            std::copy(known, known + n, out);
            return;
        }
    }
    const int seat = st.to_play;
    const uint64_t legal = legal_cards(cfg_, st, seat);
    if (legal == 0) no_legal_move(seat);
    double best[MAXP], child[MAXP];
    int best_card = -1;
    for (uint64_t m = legal; m; m &= m - 1) {
        const int card = lowest(m);
        State next = st;
        play_card(cfg_, next, card);
        uint64_t next_winners = winners;
        if (next.tricks_done > st.tricks_done)
            next_winners |= uint64_t(next.leader) << (4 * (st.tricks_done - root_.tricks_done));
        value(next, next_winners, child, nullptr);
        if (exhausted_) return;
        // The lowest card of equal value: only a strictly better one replaces it.
        if (best_card < 0 || child[seat] > best[seat]) {
            best_card = card;
            std::copy(child, child + n, best);
        }
    }
    std::copy(best, best + n, out);
    if (move != nullptr) *move = best_card;
    if (remembered) store(cards, key, best);
}

} // namespace tk
