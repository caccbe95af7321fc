// The compiled kernel's hand state: cards as 64-bit masks, legal moves, tricks, scores.
//
// Everything about the rules comes from a Config that the Python side builds from the
// loaded ruleset and the engine's card tables (tricktaker/kernel/convert.py); nothing
// here restates a game's rules. A State is one hand of the Oh Hell family from the
// bidding (sequential) or the trick play to the hand's end, or the trick play of a hook
// game (Euchre, Pluck), whose scores come from tables the Python side computes.
#pragma once

#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace tk {

// The kernel's limits and codes; the binding exports them (module.cpp) and the Python
// side reads them from there (tricktaker/kernel/spec.py), never restating them.
constexpr int MAXP = 16;                 // seats
constexpr int NCARDS = 54;               // 52 cards and two jokers
constexpr int FREE = 4;                  // the effective "suit" of a free joker (Bluke)
constexpr int SUIT_CLASSES = FREE + 1;   // effective suits 0-3 and FREE
constexpr int BID_BASE = 64;             // a move below 64 is a card, 64 + b is the bid b
constexpr int MAX_HAND_SIZE = 63;        // bids are bits of a 64-bit mask
constexpr int OUTCOME_BITS = 4;          // a seat's tricks in an outcome key
constexpr int MAX_OUTCOME_TRICKS = (1 << OUTCOME_BITS) - 1;
constexpr int SCORE_LIMIT = 1 << 24;     // the largest score or trick points, either sign
constexpr uint64_t DECK_BITS = (uint64_t(1) << NCARDS) - 1; // every card id as a mask

enum Phase : int8_t { BIDDING = 0, PLAYING = 1, OVER = 2 };

// Where the target has no popcount instruction (x86 without -mpopcnt, the portable
// default), the builtin is a call into libgcc; the same count inline is faster.
inline int popcount(uint64_t x) {
#if (defined(__x86_64__) || defined(__i386__)) && !defined(__POPCNT__)
    x = x - ((x >> 1) & 0x5555555555555555ULL);
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    return int((x * 0x0101010101010101ULL) >> 56);
#else
    return __builtin_popcountll(x);
#endif
}
inline int lowest(uint64_t x) { return __builtin_ctzll(x); }
inline int highest(uint64_t x) { return 63 - __builtin_clzll(x); }

// xoshiro256** seeded by splitmix64: fast, and the same stream on every machine.
struct Rng {
    uint64_t s[4];
    explicit Rng(uint64_t seed = 0) {
        for (auto &word : s) {
            seed += 0x9E3779B97F4A7C15ULL;
            uint64_t z = seed;
            z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
            z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
            word = z ^ (z >> 31);
        }
    }
    static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
    uint64_t next() {
        const uint64_t result = rotl(s[1] * 5, 7) * 9;
        const uint64_t t = s[1] << 17;
        s[2] ^= s[0];
        s[3] ^= s[1];
        s[1] ^= s[2];
        s[0] ^= s[3];
        s[2] ^= t;
        s[3] = rotl(s[3], 45);
        return result;
    }
    // Uniform in [0, n) (Lemire's method, unbiased).
    uint32_t below(uint32_t n) {
        uint64_t m = (next() >> 32) * uint64_t(n);
        uint32_t low = uint32_t(m);
        if (low < n) {
            uint32_t threshold = uint32_t(-n) % n;
            while (low < threshold) {
                m = (next() >> 32) * uint64_t(n);
                low = uint32_t(m);
            }
        }
        return uint32_t(m >> 32);
    }
    double real() { return double(next() >> 11) * 0x1.0p-53; }
    // The index of a uniformly chosen set bit of a non-empty mask.
    int pick(uint64_t mask) {
        int k = int(below(uint32_t(popcount(mask))));
        while (k--) mask &= mask - 1;
        return lowest(mask);
    }
};

// What the rules say about one hand, from the ruleset and the engine's card tables.
struct Config {
    int players = 0;
    int hand_size = 0;
    int trump = -1; // -1: no trump
    int8_t suit_of[NCARDS] = {};
    int8_t rank_of[NCARDS] = {};
    int16_t key[NCARDS][5] = {}; // how strongly a card bids for a trick led in a suit
    uint64_t suit_masks[5] = {};
    uint64_t trump_mask = 0;
    uint64_t deck_mask = 0;
    uint64_t turn_up_mask = 0;
    uint64_t beaters[NCARDS] = {}; // per card: the cards that beat it when it is led
    // Per suit led and suit class: the deck's cards of the class when their strength
    // never falls as the card id rises (the strongest held is then the highest id held),
    // else 0; and per suit led the cards outside every such class. Filled by finish().
    uint64_t rising[SUIT_CLASSES][SUIT_CLASSES] = {};
    uint64_t unordered[SUIT_CLASSES] = {};
    bool follow_suit = true;
    bool must_trump = false;
    bool trump_lead_after_broken = false;
    bool misere = false;
    bool cooperative = false;
    bool hook = false;
    bool sum_equals_hand = false;
    bool simultaneous = false; // bids made at once: any seat without a bid may bid
    int min_bid = 0;
    uint32_t no_zero_seats = 0; // seats that may not bid 0 (a zero-bid streak)
    std::vector<int> score;        // score[bid * (hand_size + 1) + tricks]
    std::vector<int> trick_points; // points for winning trick k (index k - 1)
    double reward_scale = 1.0;
    // A hand scored by a game's own rules (the hook games): each seat's hand score and
    // search reward read from tables indexed by the tricks its team took, which the
    // Python side computes with the game's own scoring (no bids, no score formula).
    bool table_result = false;
    std::vector<int> result_score;     // [seat * (hand_size + 1) + team tricks]
    std::vector<double> result_reward; // the same, the search's reward
    uint32_t team[MAXP] = {};          // per seat: the seats whose tricks count with its own
    uint32_t active = 0;               // seats that play the tricks (0: every seat)
    int active_count = 0;              // filled by finish()
    int opening_card = -1;             // the card that must open the first trick, if held
    // The learned bid model's worth of each card in tricks (tricktaker.bots.bid_model),
    // NCARDS entries, or empty: the rollout policy then estimates a hand's tricks by
    // its formula (estimate_tricks).
    std::vector<double> bid_value;
    // When a seat's result depends on the other seats' tricks too (Buckup's pot), the
    // results of every way the hand's tricks can fall: sorted keys (each seat's tricks in
    // 4 bits, seat 0 lowest) and per key and seat the hand score and the reward. The
    // tables above then only tell the rollout policy whether a seat wants more tricks.
    std::vector<uint64_t> outcome_keys;
    std::vector<int> outcome_score;     // [key index * players + seat]
    std::vector<double> outcome_reward;

    void finish(); // fills key-derived tables (beaters); checks sizes
};

// One hand in progress.
struct State {
    uint64_t hands[MAXP];
    int8_t bids[MAXP];
    int8_t tricks[MAXP];
    int16_t points[MAXP];
    uint8_t trick_seat[MAXP];
    uint8_t trick_card[MAXP];
    int8_t trick_len;
    int8_t leader;
    int8_t to_play;
    int8_t tricks_done;
    int8_t bid_count;
    int8_t bid_sum;
    int8_t eldest;
    int8_t phase;
    bool broken;
    int8_t first_bidder; // simultaneous bids: this seat bids first (the searching seat), or -1
};

// The seat to act (bidding: in turn from the eldest, or with simultaneous bids the
// first bidder, then the lowest seat without a bid; playing: the next to play).
inline int seat_to_act(const Config &cfg, const State &st) {
    if (st.phase != BIDDING) return st.to_play;
    if (!cfg.simultaneous) return (st.eldest + st.bid_count) % cfg.players;
    if (st.first_bidder >= 0 && st.bids[st.first_bidder] < 0) return st.first_bidder;
    for (int s = 0; s < cfg.players; ++s)
        if (st.bids[s] < 0) return s;
    return 0;
}

// The next seat clockwise from ``seat`` that plays the tricks.
inline int next_active(const Config &cfg, int seat) {
    int n = cfg.players;
    int nxt = seat + 1 < n ? seat + 1 : 0;
    while (!((cfg.active >> nxt) & 1)) nxt = nxt + 1 < n ? nxt + 1 : 0;
    return nxt;
}
// The tricks taken by ``seat``'s team (the seat alone without partners).
inline int team_tricks(const Config &cfg, const State &st, int seat) {
    int total = 0;
    for (uint32_t m = cfg.team[seat]; m; m &= m - 1) total += st.tricks[lowest(m)];
    return total;
}

// The index of the hand's outcome (every seat's tricks) in ``cfg.outcome_keys``; -1
// before the hand's end (its scores are then 0).
int outcome_index(const Config &cfg, const State &st);

uint64_t legal_cards(const Config &cfg, const State &st, int seat);
uint64_t legal_bids(const Config &cfg, const State &st, int seat);
// A state or config that contradicts itself (a seat to move with no card, a count out
// of range): the binding raises ValueError for it.
struct BadInput : std::invalid_argument {
    using std::invalid_argument::invalid_argument;
};
[[noreturn]] void no_legal_move(int seat); // throws BadInput

// Legal moves of the seat to act: cards (bits 0..53) or bids (bit b of the mask). None
// only in a state that contradicts itself (a seat to play with no card left): BadInput,
// so that no search or rollout goes on without a move.
inline uint64_t legal_moves(const Config &cfg, const State &st) {
    int seat = seat_to_act(cfg, st);
    uint64_t legal = st.phase == BIDDING ? legal_bids(cfg, st, seat) : legal_cards(cfg, st, seat);
    if (legal == 0) no_legal_move(seat);
    return legal;
}
int trick_winner(const Config &cfg, const State &st);
void play_card(const Config &cfg, State &st, int card);
void make_bid(const Config &cfg, State &st, int bid);
// Applies a move code (a card, or BID_BASE + bid) for the seat to act.
inline void apply_move(const Config &cfg, State &st, int move) {
    if (move >= BID_BASE)
        make_bid(cfg, st, move - BID_BASE);
    else
        play_card(cfg, st, move);
}
int hand_score(const Config &cfg, const State &st, int seat);
// What the coach values a finished hand by for ``seat`` (coach/model.py hand_points):
// its hand score, or in a cooperative game (no seat scores) 1 when every seat took
// exactly its bid and 0 otherwise, so that a mean over deals is the table's chance.
int coach_points(const Config &cfg, const State &st, int seat);
void rewards(const Config &cfg, const State &st, double *out);
// Checks that a state read from outside fits the config and itself (seats, cards, trick
// counts, phase), so that playing it on cannot index out of range: BadInput otherwise.
void check_state(const Config &cfg, const State &st);

struct Unsupported : std::runtime_error {
    using std::runtime_error::runtime_error;
};

} // namespace tk
