// Legal moves, tricks and scores of one hand (see core.hpp).
#include "core.hpp"

namespace tk {

void Config::finish() {
    if (players < 2 || players > MAXP)
        throw Unsupported("the kernel plays 2 to " + std::to_string(MAXP) + " seats");
    if (hand_size < 1 || hand_size * players > NCARDS || hand_size > 63)
        throw Unsupported("hand size out of the kernel's range");
    if (int(score.size()) != (hand_size + 1) * (hand_size + 1))
        throw std::invalid_argument("score table: need (hand_size + 1) ** 2 entries");
    if (int(trick_points.size()) != hand_size)
        throw std::invalid_argument("trick points: need hand_size entries");
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
    if (st.trick_len < cfg.players) {
        st.to_play = int8_t(seat + 1 < cfg.players ? seat + 1 : 0);
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

int hand_score(const Config &cfg, const State &st, int seat) {
    if (cfg.cooperative) return 0;
    int bid = st.bids[seat] < 0 ? 0 : st.bids[seat];
    return cfg.score[bid * (cfg.hand_size + 1) + st.tricks[seat]] + st.points[seat];
}

void rewards(const Config &cfg, const State &st, double *out) {
    int n = cfg.players;
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
