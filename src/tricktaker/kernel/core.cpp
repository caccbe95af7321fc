// Legal moves, tricks and scores of one hand (see core.hpp).
#include "core.hpp"

#include <algorithm>
#include <cmath>

namespace tk {

void Config::finish() {
    if (players < 2 || players > MAXP)
        throw Unsupported("the kernel plays 2 to " + std::to_string(MAXP) + " seats");
    if (hand_size < 1 || hand_size * players > NCARDS || hand_size > MAX_HAND_SIZE)
        throw Unsupported("hand size out of the kernel's range");
    if (trump < -1 || trump >= FREE) throw BadInput("the trump is a suit 0-3, or -1 for none");
    if (min_bid < 0) throw BadInput("the lowest bid is 0 or more");
    if (!std::isfinite(reward_scale) || reward_scale <= 0.0)
        throw BadInput("the reward scale is a positive number");
    for (int c = 0; c < NCARDS; ++c)
        if (suit_of[c] < 0 || suit_of[c] > FREE) throw BadInput("a card's suit is 0-4");
    for (uint64_t mask : suit_masks)
        if (mask & ~DECK_BITS) throw BadInput("a suit mask holds cards 0-53 only");
    if ((trump_mask | deck_mask | turn_up_mask) & ~DECK_BITS)
        throw BadInput("a card mask holds cards 0-53 only");
    table_result = !result_score.empty() || !result_reward.empty();
    if (table_result) {
        size_t need = size_t(players) * size_t(hand_size + 1);
        if (result_score.size() != need || result_reward.size() != need)
            throw std::invalid_argument("result tables: need players * (hand_size + 1) entries");
        score.assign(size_t((hand_size + 1) * (hand_size + 1)), 0);
        trick_points.assign(size_t(hand_size), 0);
    }
    if (int(score.size()) != (hand_size + 1) * (hand_size + 1))
        throw std::invalid_argument("score table: need (hand_size + 1) ** 2 entries");
    // Scores and trick points are added up in int: keep them far from its limits.
    for (int v : score)
        if (v < -SCORE_LIMIT || v > SCORE_LIMIT) throw BadInput("a score out of the kernel's range");
    for (int v : trick_points)
        if (v < -SCORE_LIMIT || v > SCORE_LIMIT)
            throw BadInput("trick points out of the kernel's range");
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
    if (opening_card < -1 || opening_card >= NCARDS)
        throw std::invalid_argument("the opening card is a card 0-53, or -1 for none");
    if (no_zero_seats & ~all) throw BadInput("the seats that may not bid 0 are seats");
    if (!outcome_keys.empty() || !outcome_score.empty() || !outcome_reward.empty()) {
        size_t need = outcome_keys.size() * size_t(players);
        if (!table_result || hand_size > MAX_OUTCOME_TRICKS || outcome_score.size() != need ||
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
    uint64_t deck = deck_mask ? deck_mask : DECK_BITS;
    for (int led = 0; led < SUIT_CLASSES; ++led) {
        uint64_t ordered = 0;
        for (int s = 0; s < SUIT_CLASSES; ++s) {
            uint64_t cards = 0;
            bool rises = true;
            int last = INT32_MIN;
            for (int c = 0; c < NCARDS; ++c) {
                if (suit_of[c] != s || !((deck >> c) & 1)) continue;
                cards |= 1ULL << c;
                rises = rises && key[c][led] >= last;
                last = key[c][led];
            }
            rising[led][s] = rises ? cards : 0;
            ordered |= rising[led][s];
        }
        unordered[led] = ~ordered;
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

void no_legal_move(int seat) {
    throw BadInput("seat " + std::to_string(seat) +
                   " has no legal move (the state's hands do not fit its tricks)");
}

void check_state(const Config &cfg, const State &st) {
    int n = cfg.players;
    auto seat_ok = [&](int s) { return s >= 0 && s < n; };
    auto active = [&](int s) { return seat_ok(s) && ((cfg.active >> s) & 1); };
    if (st.phase < BIDDING || st.phase > OVER) throw BadInput("the phase is 0-2");
    if (!seat_ok(st.leader) || !seat_ok(st.to_play) || !seat_ok(st.eldest))
        throw BadInput("the leader, the seat to play and the eldest are seats");
    if (st.first_bidder < -1 || st.first_bidder >= n)
        throw BadInput("the first bidder is a seat, or -1");
    if (st.tricks_done < 0 || st.tricks_done > cfg.hand_size ||
        (st.phase != OVER && st.tricks_done == cfg.hand_size))
        throw BadInput("tricks done: 0 to the hand size, less before the hand's end");
    int taken = 0;
    for (int s = 0; s < n; ++s) {
        if (st.hands[s] & ~DECK_BITS) throw BadInput("a hand holds cards 0-53 only");
        if (st.bids[s] < -1 || st.bids[s] > cfg.hand_size)
            throw BadInput("a bid is 0 to the hand size, or -1 for none");
        if (st.tricks[s] < 0) throw BadInput("a seat's tricks are 0 or more");
        taken += st.tricks[s];
    }
    if (taken != st.tricks_done) throw BadInput("the seats' tricks add up to the tricks done");
    if (st.bid_count < 0 || st.bid_count > n || (st.phase == BIDDING && st.bid_count == n))
        throw BadInput("bids made: 0 to the seats, fewer while bidding");
    if (st.bid_sum < 0 || st.bid_sum > n * cfg.hand_size)
        throw BadInput("the bids' sum is 0 to seats times the hand size");
    if (st.trick_len < 0 || st.trick_len >= cfg.active_count)
        throw BadInput("a trick in progress has fewer cards than the seats in it");
    if (st.phase == PLAYING && (!active(st.to_play) || !active(st.leader)))
        throw BadInput("the seat to play and the leader play the tricks");
    uint64_t seen = 0;
    for (int i = 0; i < st.trick_len; ++i) {
        if (!active(st.trick_seat[i]) || st.trick_card[i] >= NCARDS)
            throw BadInput("a trick's cards are cards 0-53 of seats in the tricks");
        uint64_t bit = uint64_t(1) << st.trick_card[i];
        if (seen & bit) throw BadInput("a card twice in the trick");
        seen |= bit;
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

int coach_points(const Config &cfg, const State &st, int seat) {
    if (!cfg.cooperative) return hand_score(cfg, st, seat);
    for (int s = 0; s < cfg.players; ++s)
        if ((st.bids[s] < 0 ? 0 : st.bids[s]) != st.tricks[s]) return 0;
    return 1;
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
