// Legal moves, tricks and scores of one hand (see core.hpp).
#include "core.hpp"

#include <algorithm>

namespace tk {

void Config::finish() {
    if (players < 2 || players > MAXP)
        throw Unsupported("the kernel plays 2 to " + std::to_string(MAXP) + " seats");
    if (hand_size < 1 || hand_size * players > NCARDS || hand_size > 63)
        throw Unsupported("hand size out of the kernel's range");
    if (table_result) {
        size_t need = size_t(players) * size_t(hand_size + 1);
        if (result_score.size() != need || result_reward.size() != need)
            throw std::invalid_argument("result tables: need players * (hand_size + 1) entries");
        score.assign(size_t((hand_size + 1) * (hand_size + 1)), 0);
        trick_points.assign(size_t(hand_size), 0);
    }
    if (int(score.size()) != (hand_size + 1) * (hand_size + 1))
        throw std::invalid_argument("score table: need (hand_size + 1) ** 2 entries");
    if (int(trick_points.size()) != hand_size)
        throw std::invalid_argument("trick points: need hand_size entries");
    uint32_t all = (1u << players) - 1;
    if (active == 0) active = all;
    active &= all;
    active_count = popcount(active);
    if (active_count < 2) throw Unsupported("the kernel plays tricks of two seats or more");
    for (int s = 0; s < players; ++s) {
        if (team[s] == 0) team[s] = 1u << s;
        if (!((team[s] >> s) & 1) || (team[s] & ~all))
            throw std::invalid_argument("a seat's team must hold the seat and only seats");
    }
    if (opening_card >= NCARDS) throw std::invalid_argument("bad opening card");
    if (!outcome_keys.empty()) {
        size_t need = outcome_keys.size() * size_t(players);
        if (!table_result || hand_size > 15 || outcome_score.size() != need ||
            outcome_reward.size() != need)
            throw std::invalid_argument("outcome tables: need keys * players entries");
        for (size_t i = 1; i < outcome_keys.size(); ++i)
            if (outcome_keys[i - 1] >= outcome_keys[i])
                throw std::invalid_argument("outcome keys must be sorted and distinct");
    }
    for (int c = 0; c < NCARDS; ++c) {
        int led = suit_of[c];
        int strength = key[c][led];
        uint64_t mask = 0;
        for (int o = 0; o < NCARDS; ++o)
            if (key[o][led] > strength) mask |= 1ULL << o;
        beaters[c] = mask;
    }
}

uint64_t legal_cards(const Config &cfg, const State &st, int seat) {
    uint64_t hand = st.hands[seat];
    if (st.trick_len == 0) {
        if (cfg.opening_card >= 0 && st.tricks_done == 0 && ((hand >> cfg.opening_card) & 1))
            return 1ULL << cfg.opening_card;
        if (cfg.trump_lead_after_broken && !st.broken && cfg.trump >= 0) {
            uint64_t others = hand & ~cfg.trump_mask;
            if (others) return others;
        }
        return hand;
    }
    int led = cfg.suit_of[st.trick_card[0]];
    if (led == FREE || !cfg.follow_suit) return hand;
    uint64_t free_cards = hand & cfg.suit_masks[FREE];
    uint64_t follow = hand & cfg.suit_masks[led];
    if (follow) return follow | free_cards;
    if (cfg.must_trump && cfg.trump >= 0) {
        uint64_t trumps = hand & cfg.trump_mask;
        if (trumps) return trumps | free_cards;
    }
    return hand;
}

uint64_t legal_bids(const Config &cfg, const State &st, int seat) {
    if (cfg.misere) return 1;
    int size = cfg.hand_size, made = st.bid_sum;
    int high = cfg.sum_equals_hand ? size - made : size;
    int low = cfg.min_bid < high ? cfg.min_bid : high;
    uint64_t options = 0;
    for (int b = low; b <= high; ++b) options |= 1ULL << b;
    bool last = !cfg.simultaneous && st.bid_count == cfg.players - 1;
    int total = size - made;
    if (cfg.sum_equals_hand && last) options = total >= 0 ? 1ULL << total : 0;
    if (cfg.hook && last && total >= 0 && total < 64 && ((options >> total) & 1) &&
        popcount(options) > 1)
        options &= ~(1ULL << total);
    if (((cfg.no_zero_seats >> seat) & 1) && popcount(options) > 1) options &= ~1ULL;
    return options;
}

int trick_winner(const Config &cfg, const State &st) {
    int led = cfg.suit_of[st.trick_card[0]];
    int best_seat = st.trick_seat[0], best_key = -1;
    for (int i = 0; i < st.trick_len; ++i) {
        int strength = cfg.key[st.trick_card[i]][led];
        if (strength > best_key) {
            best_key = strength;
            best_seat = st.trick_seat[i];
        }
    }
    return best_seat;
}

void play_card(const Config &cfg, State &st, int card) {
    int seat = st.to_play;
    st.hands[seat] &= ~(1ULL << card);
    st.trick_seat[st.trick_len] = uint8_t(seat);
    st.trick_card[st.trick_len] = uint8_t(card);
    st.trick_len++;
    if (cfg.trump >= 0 && cfg.suit_of[card] == cfg.trump) st.broken = true;
    if (st.trick_len < cfg.active_count) {
        st.to_play = int8_t(next_active(cfg, seat));
        return;
    }
    int winner = trick_winner(cfg, st);
    st.tricks[winner]++;
    st.points[winner] = int16_t(st.points[winner] + cfg.trick_points[st.tricks_done]);
    st.tricks_done++;
    st.trick_len = 0;
    st.leader = st.to_play = int8_t(winner);
    if (st.tricks_done == cfg.hand_size) st.phase = OVER;
}

void make_bid(const Config &cfg, State &st, int bid) {
    int seat = seat_to_act(cfg, st);
    st.bids[seat] = int8_t(bid);
    st.bid_sum = int8_t(st.bid_sum + bid);
    st.bid_count++;
    if (st.bid_count == cfg.players) {
        st.phase = PLAYING;
        st.leader = st.to_play = st.eldest;
        st.trick_len = 0;
    }
}

int outcome_index(const Config &cfg, const State &st) {
    uint64_t key = 0;
    for (int s = 0; s < cfg.players; ++s) key |= uint64_t(st.tricks[s]) << (4 * s);
    auto found = std::lower_bound(cfg.outcome_keys.begin(), cfg.outcome_keys.end(), key);
    if (found == cfg.outcome_keys.end() || *found != key) return -1; // not a finished hand
    return int(found - cfg.outcome_keys.begin());
}

int hand_score(const Config &cfg, const State &st, int seat) {
    if (!cfg.outcome_keys.empty()) {
        int at = outcome_index(cfg, st);
        return at < 0 ? 0 : cfg.outcome_score[size_t(at * cfg.players + seat)];
    }
    if (cfg.table_result)
        return cfg.result_score[size_t(seat * (cfg.hand_size + 1) + team_tricks(cfg, st, seat))];
    if (cfg.cooperative) return 0;
    int bid = st.bids[seat] < 0 ? 0 : st.bids[seat];
    return cfg.score[bid * (cfg.hand_size + 1) + st.tricks[seat]] + st.points[seat];
}

void rewards(const Config &cfg, const State &st, double *out) {
    int n = cfg.players;
    if (!cfg.outcome_keys.empty()) {
        int at = outcome_index(cfg, st);
        for (int s = 0; s < n; ++s)
            out[s] = at < 0 ? 0.0 : cfg.outcome_reward[size_t(at * n + s)];
        return;
    }
    if (cfg.table_result) {
        for (int s = 0; s < n; ++s)
            out[s] = cfg.result_reward[size_t(s * (cfg.hand_size + 1) + team_tricks(cfg, st, s))];
        return;
    }
    if (cfg.cooperative) {
        int exact = 0;
        for (int s = 0; s < n; ++s) exact += (st.bids[s] < 0 ? 0 : st.bids[s]) == st.tricks[s];
        double value = (exact == n ? 1.0 : 0.0) + 0.01 * exact;
        for (int s = 0; s < n; ++s) out[s] = value;
        return;
    }
    for (int s = 0; s < n; ++s) out[s] = hand_score(cfg, st, s) / cfg.reward_scale;
}

} // namespace tk
