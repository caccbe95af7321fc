// The rollout policy (see policy.hpp); the same choices as bots/rollout.py's (the Oh Hell
// family's through search_ohhell.py, the hook games' through rollout_card), ties included.
#include "policy.hpp"

#include <algorithm>
#include <climits>
#include <cstdint>

namespace tk {

double estimate_tricks(const Config &cfg, const State &st, int seat) {
    uint64_t mine = st.hands[seat];
    if (!cfg.bid_value.empty()) { // the learned bid model, in card order as Python adds
        double sum = 0.0;
        for (uint64_t hand = mine; hand; hand &= hand - 1) sum += cfg.bid_value[size_t(lowest(hand))];
        return sum;
    }
    uint64_t unseen = cfg.deck_mask & ~mine & ~cfg.turn_up_mask;
    double others = double((cfg.players - 1) * cfg.hand_size);
    int count = popcount(unseen);
    double keep = 1.0 - std::min(1.0, others / double(count > 1 ? count : 1));
    double total = 0.0;
    for (uint64_t hand = mine; hand; hand &= hand - 1) {
        int card = lowest(hand);
        total += std::pow(keep, double(popcount(cfg.beaters[card] & unseen)));
    }
    return total;
}

int guess_bid(const Config &cfg, const State &st, int seat, uint64_t legal) {
    double target = estimate_tricks(cfg, st, seat);
    int best = -1;
    double best_gap = 0.0;
    for (uint64_t m = legal; m; m &= m - 1) {
        int b = lowest(m);
        double gap = std::fabs(double(b) - target);
        if (best < 0 || gap < best_gap) {
            best = b;
            best_gap = gap;
        }
    }
    return best;
}

namespace {

// The strongest card ``seat`` could legally play to a trick led in ``led``: within a
// suit class whose strength rises with the card id (Config::rising) its highest card,
// else each card's.
int reply_strength(const Config &cfg, const State &st, int seat, int led) {
    uint64_t hand = st.hands[seat];
    if (led != FREE && cfg.follow_suit) {
        uint64_t follow = hand & cfg.suit_masks[led];
        if (follow)
            hand = follow | (hand & cfg.suit_masks[FREE]);
        else if (cfg.must_trump && (hand & cfg.trump_mask))
            hand &= cfg.trump_mask | cfg.suit_masks[FREE];
    }
    int best = 0;
    for (uint64_t ordered = hand & ~cfg.unordered[led]; ordered;) {
        int top = highest(ordered);
        best = std::max(best, int(cfg.key[top][led]));
        ordered &= ~cfg.rising[led][cfg.suit_of[top]];
    }
    for (uint64_t rest = hand & cfg.unordered[led]; rest; rest &= rest - 1)
        best = std::max(best, int(cfg.key[lowest(rest)][led]));
    return best;
}

// The strongest card any seat still to play after ``seat`` could add to the trick.
int threat(const Config &cfg, const State &st, int seat, int led) {
    int n = cfg.players, best = 0;
    int end = st.trick_len ? st.trick_seat[0] : seat;
    for (int nxt = (seat + 1) % n; nxt != end; nxt = (nxt + 1) % n)
        if ((cfg.active >> nxt) & 1) best = std::max(best, reply_strength(cfg, st, nxt, led));
    return best;
}

} // namespace

int greedy_card(const Config &cfg, const State &st, int seat, uint64_t legal, bool want,
                bool strongest) {
    if (st.trick_len == 0) {
        if (want) {
            int threats[5] = {-1, -1, -1, -1, -1};
            int best = -1, best_key = 0;
            for (uint64_t m = legal; m; m &= m - 1) {
                int c = lowest(m), led = cfg.suit_of[c];
                if (threats[led] < 0) threats[led] = threat(cfg, st, seat, led);
                int k = cfg.key[c][led];
                if (k > threats[led] && (best < 0 || k < best_key)) {
                    best = c;
                    best_key = k;
                }
            }
            if (best >= 0) return best;
        }
        // The strongest card (the last of equals) when wanting and trying the strongest,
        // else the weakest (the first of equals).
        bool high = want && strongest;
        int pick = lowest(legal), pick_key = cfg.key[pick][cfg.suit_of[pick]];
        for (uint64_t m = legal & (legal - 1); m; m &= m - 1) {
            int c = lowest(m), k = cfg.key[c][cfg.suit_of[c]];
            if (high ? k >= pick_key : k < pick_key) {
                pick = c;
                pick_key = k;
            }
        }
        return pick;
    }
    int led = cfg.suit_of[st.trick_card[0]];
    int best = 0;
    for (int i = 0; i < st.trick_len; ++i) best = std::max(best, int(cfg.key[st.trick_card[i]][led]));
    bool last = st.trick_len == cfg.active_count - 1 || next_active(cfg, seat) == st.trick_seat[0];
    // The cards ranked by (strength, rank within suit, card id), the winners (stronger than
    // the trick so far) apart from the losers: only the ends of each are ever played, so
    // one pass keeps them (no sort).
    auto order = [&](int c) {
        return int64_t(cfg.key[c][led]) * 65536 + int64_t(cfg.rank_of[c] + 128) * 256 + c;
    };
    constexpr int64_t NONE_LOW = INT64_MAX, NONE_HIGH = INT64_MIN;
    int64_t win_low = NONE_LOW, win_high = NONE_HIGH, lose_low = NONE_LOW, lose_high = NONE_HIGH;
    for (uint64_t m = legal; m; m &= m - 1) {
        int c = lowest(m);
        int64_t o = order(c);
        if (cfg.key[c][led] > best) {
            win_low = std::min(win_low, o);
            win_high = std::max(win_high, o);
        } else {
            lose_low = std::min(lose_low, o);
            lose_high = std::max(lose_high, o);
        }
    }
    auto card_of = [](int64_t o) { return int(o & 255); };
    bool winners = win_low != NONE_LOW, losers = lose_low != NONE_LOW;
    if (want) {
        if (winners) {
            if (last) return card_of(win_low);
            int t = std::max(best, threat(cfg, st, seat, led));
            int64_t sure = NONE_LOW;
            for (uint64_t m = legal; m; m &= m - 1)
                if (cfg.key[lowest(m)][led] > t) sure = std::min(sure, order(lowest(m)));
            if (sure != NONE_LOW) return card_of(sure);
            // No sure winner: the strongest that wins so far, or the lowest card.
            return card_of(strongest ? win_high : std::min(win_low, lose_low));
        }
        return card_of(lose_low);
    }
    if (losers) return card_of(lose_high);
    return card_of(last ? win_high : win_low);
}

bool partner_holds(const Config &cfg, const State &st, int seat) {
    if (st.trick_len == 0 || cfg.team[seat] == (1u << seat)) return false;
    int led = cfg.suit_of[st.trick_card[0]];
    int best = -1, holder = -1;
    for (int i = 0; i < st.trick_len; ++i) {
        int k = cfg.key[st.trick_card[i]][led];
        if (k > best) {
            best = k;
            holder = st.trick_seat[i];
        }
    }
    if (!((cfg.team[seat] >> holder) & 1)) return false;
    int end = st.trick_seat[0];
    for (int nxt = next_active(cfg, seat); nxt != end; nxt = next_active(cfg, nxt))
        if (!((cfg.team[seat] >> nxt) & 1) && reply_strength(cfg, st, nxt, led) > best) return false;
    return true;
}

bool wants_trick(const Config &cfg, const State &st, int seat) {
    if (cfg.misere) return false;
    const int bid = st.bids[seat] < 0 ? 0 : st.bids[seat], won = st.tricks[seat];
    if (bid > won) return true;
    if (won == bid || won >= cfg.hand_size || cfg.cooperative || cfg.score.empty()) return false;
    const size_t row = size_t(bid) * size_t(cfg.hand_size + 1) + size_t(won);
    return cfg.score[row + 1] > cfg.score[row];
}

int policy_move(const Config &cfg, const State &st, uint64_t legal) {
    int seat = seat_to_act(cfg, st);
    if (st.phase == BIDDING) return BID_BASE + guess_bid(cfg, st, seat, legal);
    if (cfg.table_result) { // every trick counts: rollout.py's rollout_card
        bool want = !partner_holds(cfg, st, seat);
        return greedy_card(cfg, st, seat, legal, want, EVERY_TRICK_STRONGEST);
    }
    return greedy_card(cfg, st, seat, legal, wants_trick(cfg, st, seat), true);
}

void rollout(const Config &cfg, State &st, Rng &rng, double noise, int me) {
    rollout_until(cfg, st, rng, noise, me, -1);
}

void rollout_until(const Config &cfg, State &st, Rng &rng, double noise, int me, int tricks_left) {
    st.first_bidder = -1; // rollouts take simultaneous bids in seat order
    while (st.phase != OVER) {
        if (tricks_left >= 0 && st.phase == PLAYING && cfg.hand_size - st.tricks_done <= tricks_left)
            return;
        uint64_t legal = legal_moves(cfg, st);
        int move;
        if (popcount(legal) == 1) {
            move = lowest(legal) + (st.phase == BIDDING ? BID_BASE : 0);
        } else if (noise > 0.0 && seat_to_act(cfg, st) != me && rng.real() < noise) {
            move = rng.pick(legal) + (st.phase == BIDDING ? BID_BASE : 0);
        } else {
            move = policy_move(cfg, st, legal);
        }
        apply_move(cfg, st, move);
    }
}

void rollout_seats(const Config &cfg, State &st, Rng &rng, const double noise[MAXP]) {
    st.first_bidder = -1; // rollouts take simultaneous bids in seat order
    while (st.phase != OVER) {
        uint64_t legal = legal_moves(cfg, st);
        int move;
        double chance = noise[seat_to_act(cfg, st)];
        if (popcount(legal) == 1) {
            move = lowest(legal) + (st.phase == BIDDING ? BID_BASE : 0);
        } else if (chance > 0.0 && (chance >= 1.0 || rng.real() < chance)) {
            move = rng.pick(legal) + (st.phase == BIDDING ? BID_BASE : 0);
        } else {
            move = policy_move(cfg, st, legal);
        }
        apply_move(cfg, st, move);
    }
}

void random_rollout(const Config &cfg, State &st, Rng &rng) {
    while (st.phase != OVER) {
        uint64_t legal = legal_moves(cfg, st);
        apply_move(cfg, st, rng.pick(legal) + (st.phase == BIDDING ? BID_BASE : 0));
    }
}

} // namespace tk
