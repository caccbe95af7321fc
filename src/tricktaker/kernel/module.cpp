// The CPython binding of the kernel: tricktaker.kernel._core (plain C API, no
// dependencies).
//
// The Python side hands over typed objects (tricktaker/kernel/spec.py: KernelConfig,
// KernelState, WorldFacts, SplitGraph), each read here by one function (read_config,
// read_state, read_facts, read_split) through the field tables of readers.hpp, which the module
// exports (CONFIG_FIELDS, ...) so that the Python classes are checked against them. Every
// value is checked at this boundary (types, seats, cards, lengths that must agree) before
// any C++ code indexes with it, and every entry point runs under `guarded`, which turns
// any C++ exception into a Python one: a bad input raises, it never aborts.
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <climits>
#include <cmath>
#include <exception>
#include <memory>
#include <new>
#include <string>
#include <utility>
#include <vector>

#include "bidding.hpp"
#include "core.hpp"
#include "determinize.hpp"
#include "endgame.hpp"
#include "policy.hpp"
#include "pyread.hpp"
#include "readers.hpp"
#include "search.hpp"

namespace {

using namespace tk;
using namespace tk::py;

PyObject *unsupported_error = nullptr; // tricktaker.kernel._core.Unsupported

// Runs ``body`` (which returns a new reference or nullptr with an exception set) and turns
// every C++ exception into a Python exception: bad input and contradictory state
// ValueError, a ruleset or decision the kernel does not play Unsupported (a ValueError),
// memory MemoryError, anything else RuntimeError. Nothing escapes into the interpreter.
template <class Body> PyObject *guarded(Body &&body) noexcept {
    try {
        return body();
    } catch (PyError &) {
    } catch (Unsupported &e) {
        PyErr_SetString(unsupported_error, e.what());
    } catch (std::bad_alloc &) {
        PyErr_NoMemory();
    } catch (std::logic_error &e) { // invalid_argument (BadInput), out_of_range, length_error
        PyErr_SetString(PyExc_ValueError, (std::string("kernel: ") + e.what()).c_str());
    } catch (std::exception &e) {
        PyErr_SetString(PyExc_RuntimeError, (std::string("kernel: ") + e.what()).c_str());
    } catch (...) {
        PyErr_SetString(PyExc_RuntimeError, "kernel: an unknown C++ exception");
    }
    if (!PyErr_Occurred()) PyErr_SetString(PyExc_RuntimeError, "kernel: failed without a reason");
    return nullptr;
}

// Runs ``work`` without the GIL; an exception it throws is thrown again with the GIL held.
template <class Work> void without_gil(Work &&work) {
    std::exception_ptr error;
    Py_BEGIN_ALLOW_THREADS
    try {
        work();
    } catch (...) {
        error = std::current_exception();
    }
    Py_END_ALLOW_THREADS
    if (error) std::rethrow_exception(error);
}

// ------------------------------------------------------------------ functions

PyObject *make_config(PyObject *, PyObject *arg) {
    return guarded([&] {
        auto cfg = read_config(arg);
        PyObject *capsule = made(PyCapsule_New(cfg.get(), CONFIG, free_config));
        cfg.release(); // the capsule owns it now
        return capsule;
    });
}

PyObject *make_world(PyObject *, PyObject *args) {
    return guarded([&]() -> PyObject * {
        PyObject *capsule, *state, *facts;
        if (!PyArg_ParseTuple(args, "OOO", &capsule, &state, &facts)) return nullptr;
        Config *cfg = config_of(capsule);
        auto box = std::make_unique<WorldBox>();
        box->config = nullptr;
        World &w = box->world;
        w.cfg = cfg;
        w.public_state = read_state(*cfg, state);
        read_facts(*cfg, facts, w);
        Py_INCREF(capsule);
        box->config = capsule;
        PyObject *out = PyCapsule_New(box.get(), WORLD, free_world);
        if (out == nullptr) {
            Py_DECREF(capsule);
            throw PyError{};
        }
        box.release(); // the capsule owns it now
        return out;
    });
}

PyObject *search(PyObject *, PyObject *args, PyObject *kwargs) {
    return guarded([&]() -> PyObject * {
        static const char *names[] = {"world",       "moves", "iterations",      "time_budget",
                                      "exploration", "noise", "model_opponents", "weighted",
                                      "seed",        "rivalry", "endgame_tricks",
                                      "endgame_rollouts", nullptr};
        PyObject *capsule, *moves_obj;
        SearchParams p;
        int model = 0, weighted = 1, endgame_rollouts = 0;
        unsigned long long seed = 0;
        if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OOlddd|ipKdip", const_cast<char **>(names),
                                         &capsule, &moves_obj, &p.iterations, &p.time_budget,
                                         &p.exploration, &p.noise, &model, &weighted, &seed,
                                         &p.rivalry, &p.endgame_tricks, &endgame_rollouts))
            return nullptr;
        p.endgame_rollouts = endgame_rollouts != 0;
        if (p.endgame_tricks < 0 || p.endgame_tricks > MAX_ENDGAME_TRICKS)
            fail(PyExc_ValueError,
                 "endgame_tricks is 0 (off) to " + std::to_string(MAX_ENDGAME_TRICKS));
        WorldBox *box = world_of(capsule);
        p.model_opponents = model;
        p.weighted = weighted != 0;
        auto moves = read_moves(*box->world.cfg, box->world.public_state, moves_obj);
        if (p.iterations < 1) fail(PyExc_ValueError, "iterations must be at least 1");
        if (!std::isfinite(p.exploration) || !std::isfinite(p.noise) || !std::isfinite(p.rivalry))
            fail(PyExc_ValueError, "exploration, noise and rivalry must be finite");
        check_budget(p.time_budget);
        SearchResult result;
        without_gil([&] { result = ismcts(box->world, moves, p, seed); });
        Ref root(made(PyList_New(Py_ssize_t(result.root.size()))));
        for (size_t i = 0; i < result.root.size(); ++i) {
            const RootStat &r = result.root[i];
            PyList_SET_ITEM(root.get(), Py_ssize_t(i),
                            made(Py_BuildValue("(iid)", r.move, r.visits, r.mean)));
        }
        return Py_BuildValue("(ilN)", result.move, result.iterations, root.release());
    });
}

// pimc(world, moves, first, keep, rollouts, noise, time_budget, seed) -> (move, rollouts)
PyObject *pimc(PyObject *, PyObject *args) {
    return guarded([&]() -> PyObject * {
        PyObject *capsule, *moves_obj;
        long first, keep, rollouts;
        double noise, budget;
        unsigned long long seed;
        if (!PyArg_ParseTuple(args, "OOlllddK", &capsule, &moves_obj, &first, &keep, &rollouts,
                              &noise, &budget, &seed))
            return nullptr;
        WorldBox *box = world_of(capsule);
        auto moves = read_moves(*box->world.cfg, box->world.public_state, moves_obj);
        if (first < 0 || keep < 0 || rollouts < 0)
            fail(PyExc_ValueError, "first, keep and rollouts must be 0 or more");
        if (!std::isfinite(noise)) fail(PyExc_ValueError, "noise must be finite");
        check_budget(budget);
        SearchResult result;
        without_gil([&] {
            result = flat_rollouts(box->world, moves, first, keep, rollouts, noise, budget, seed);
        });
        return Py_BuildValue("(il)", result.move, result.iterations);
    });
}

// bid(world, moves, rollouts, first, keep, noise, rivalry, time_budget, weighted, seed) ->
// (move, rollouts, [(move, deals, weight, mean, (weight of each trick count...))]): see
// distribution_bid (bidding.hpp).
PyObject *bid(PyObject *, PyObject *args) {
    return guarded([&]() -> PyObject * {
        PyObject *capsule, *moves_obj;
        BidParams p;
        int weighted = 1;
        unsigned long long seed;
        if (!PyArg_ParseTuple(args, "OOllldddpK", &capsule, &moves_obj, &p.rollouts, &p.first,
                              &p.keep, &p.noise, &p.rivalry, &p.time_budget, &weighted, &seed))
            return nullptr;
        p.weighted = weighted != 0;
        WorldBox *box = world_of(capsule);
        auto moves = read_moves(*box->world.cfg, box->world.public_state, moves_obj);
        if (p.rollouts < 1 || p.first < 0 || p.keep < 1)
            fail(PyExc_ValueError, "rollouts and keep must be 1 or more, first 0 or more");
        if (!std::isfinite(p.noise) || !std::isfinite(p.rivalry))
            fail(PyExc_ValueError, "noise and rivalry must be finite");
        check_budget(p.time_budget);
        BidResult result;
        without_gil([&] { result = distribution_bid(box->world, moves, p, seed); });
        Ref stats(made(PyList_New(Py_ssize_t(result.bids.size()))));
        for (size_t i = 0; i < result.bids.size(); ++i) {
            const BidStat &b = result.bids[i];
            Ref tricks(made(PyTuple_New(Py_ssize_t(b.tricks.size()))));
            for (size_t t = 0; t < b.tricks.size(); ++t)
                PyTuple_SET_ITEM(tricks.get(), Py_ssize_t(t), made(PyFloat_FromDouble(b.tricks[t])));
            PyList_SET_ITEM(stats.get(), Py_ssize_t(i),
                            made(Py_BuildValue("(ilddN)", b.move, b.deals, b.weight, b.mean(),
                                               tricks.release())));
        }
        return Py_BuildValue("(ilN)", result.move, result.rollouts, stats.release());
    });
}

// The deals given to ``values`` (as ``samples`` lists them: each seat's hand, then the
// weight), checked against the world: the seat's own hand as it holds it, no card in two
// hands or already played, each seat as many cards as a deal sampled from the world, a
// weight of 0 or more.
std::vector<Deal> read_deals(const World &w, PyObject *object) {
    const Config &cfg = *w.cfg;
    const int n = cfg.players;
    Items listed(object, "deals");
    if (listed.size() > SAMPLES_LIMIT)
        fail(PyExc_ValueError, "deals: at most " + std::to_string(SAMPLES_LIMIT) + " a call");
    State model;
    Rng rng(0);
    w.sample(rng, model);
    uint64_t gone = 0;
    for (int s = 0; s < n; ++s) gone |= w.played[s];
    for (int i = 0; i < w.public_state.trick_len; ++i)
        gone |= uint64_t(1) << w.public_state.trick_card[i];
    std::vector<Deal> out(size_t(listed.size()));
    for (Py_ssize_t i = 0; i < listed.size(); ++i) {
        Items deal(listed[i], listed.name(i), n + 1);
        Deal &into = out[size_t(i)];
        uint64_t placed = gone;
        for (int s = 0; s < n; ++s) {
            uint64_t hand = to_mask(deal[s], deal.name(s), DECK_BITS);
            std::string where = deal.name(s).str();
            if (hand & placed) fail(PyExc_ValueError, where + ": a card played or in two hands");
            int count = popcount(model.hands[s]);
            if (popcount(hand) != count)
                fail(PyExc_ValueError, where + ": the seat holds " + std::to_string(count) +
                                           " cards, not " + std::to_string(popcount(hand)));
            placed |= hand;
            into.hands[s] = hand;
        }
        if (into.hands[w.me] != w.public_state.hands[w.me])
            fail(PyExc_ValueError, deal.name(w.me).str() + ": the seat's own hand as it holds it");
        into.weight = to_real(deal[n], deal.name(n));
        if (into.weight < 0.0)
            fail(PyExc_ValueError, deal.name(n).str() + ": a weight is 0 or more");
    }
    return out;
}

// values(world, moves, deals, least, time_budget, seed, given=None) -> (made_known,
// [(deals, weight, sum, sum_sq, made, weight_sq)] per move): see choice_values (search.hpp).
PyObject *values(PyObject *, PyObject *args) {
    return guarded([&]() -> PyObject * {
        PyObject *capsule, *moves_obj, *given_obj = Py_None;
        long deals, least;
        double budget;
        unsigned long long seed;
        if (!PyArg_ParseTuple(args, "OOlldK|O", &capsule, &moves_obj, &deals, &least, &budget,
                              &seed, &given_obj))
            return nullptr;
        WorldBox *box = world_of(capsule);
        auto moves = read_moves(*box->world.cfg, box->world.public_state, moves_obj);
        if (deals < 0 || least < 0) fail(PyExc_ValueError, "deals and least must be 0 or more");
        check_budget(budget);
        std::vector<Deal> given;
        const bool has_given = given_obj != Py_None;
        if (has_given) given = read_deals(box->world, given_obj);
        ChoiceValues result;
        without_gil([&] {
            result = choice_values(box->world, moves, deals, least, budget, seed,
                                   has_given ? &given : nullptr);
        });
        Ref out(made(PyList_New(Py_ssize_t(result.moves.size()))));
        for (size_t j = 0; j < result.moves.size(); ++j) {
            const MoveValue &v = result.moves[j];
            PyList_SET_ITEM(out.get(), Py_ssize_t(j),
                            made(Py_BuildValue("(lddddd)", v.deals, v.weight, v.sum, v.sum_sq,
                                              v.made, v.weight_sq)));
        }
        return Py_BuildValue("(ON)", result.made_known ? Py_True : Py_False, out.release());
    });
}

// samples(world, seed, count): each sample's hands (a tuple of masks per seat) and weight.
PyObject *samples(PyObject *, PyObject *args) {
    return guarded([&]() -> PyObject * {
        WorldDraws call;
        if (!parse_world_draws(args, call)) return nullptr;
        const World &w = *call.world;
        if (call.count > SAMPLES_LIMIT)
            fail(PyExc_ValueError, "samples: at most " + std::to_string(SAMPLES_LIMIT) + " a call");
        int n = w.cfg->players;
        Rng rng(call.seed);
        Ref out(made(PyList_New(0)));
        State st;
        for (long i = 0; i < call.count; ++i) {
            w.sample(rng, st);
            Ref hands(made(PyTuple_New(n + 1)));
            for (int s = 0; s < n; ++s)
                PyTuple_SET_ITEM(hands.get(), s, made(PyLong_FromUnsignedLongLong(st.hands[s])));
            PyTuple_SET_ITEM(hands.get(), n, made(PyFloat_FromDouble(w.weight(st))));
            append(out.get(), hands.release());
        }
        return out.release();
    });
}

// kinds(world, seed, count) -> [chance each seat is a random player]: what a search of
// the world learns of the other seats' kinds (opponent_kinds over ``count`` deals; the
// searching seat's and every seat's with no prior: 0).
PyObject *kinds(PyObject *, PyObject *args) {
    return guarded([&]() -> PyObject * {
        WorldDraws call;
        if (!parse_world_draws(args, call)) return nullptr;
        const World &w = *call.world;
        if (call.count > SAMPLES_LIMIT)
            fail(PyExc_ValueError, "kinds: at most " + std::to_string(SAMPLES_LIMIT) + " deals");
        if (w.random_prior.empty()) fail(PyExc_ValueError, "kinds: the world has no random_prior");
        int n = w.cfg->players;
        Rng rng(call.seed);
        OpponentKinds learned;
        without_gil([&] { learned = opponent_kinds(w, rng, call.count); });
        Ref out(made(PyList_New(n)));
        for (int s = 0; s < n; ++s)
            PyList_SET_ITEM(out.get(), s, made(PyFloat_FromDouble(learned.random[s])));
        return out.release();
    });
}

// sample_loop(world, seed, count): ``count`` determinizations, for timing; a checksum.
PyObject *sample_loop(PyObject *, PyObject *args) {
    return guarded([&]() -> PyObject * {
        WorldDraws call;
        if (!parse_world_draws(args, call)) return nullptr;
        const World &w = *call.world;
        uint64_t check = 0;
        without_gil([&] {
            Rng rng(call.seed);
            State st;
            for (long i = 0; i < call.count; ++i) {
                w.sample(rng, st);
                check ^= st.hands[i % w.cfg->players];
            }
        });
        return PyLong_FromUnsignedLongLong(check);
    });
}

// playouts(config, state, seed, count, policy, noise, me): ``count`` playouts of a copy
// of ``state`` to the hand's end (random moves, or the rollout policy); the total score.
PyObject *playouts(PyObject *, PyObject *args) {
    return guarded([&]() -> PyObject * {
        PyObject *capsule, *state;
        unsigned long long seed;
        long count;
        int policy, me;
        double noise;
        if (!PyArg_ParseTuple(args, "OOKlpdi", &capsule, &state, &seed, &count, &policy, &noise,
                              &me))
            return nullptr;
        const Config &cfg = *config_of(capsule);
        State start = read_state(cfg, state);
        check_count(count);
        long long total = 0;
        without_gil([&] {
            Rng rng(seed);
            for (long i = 0; i < count; ++i) {
                State st = start;
                if (policy)
                    rollout(cfg, st, rng, noise, me);
                else
                    random_rollout(cfg, st, rng);
                total += hand_score(cfg, st, int(i % cfg.players));
            }
        });
        return PyLong_FromLongLong(total);
    });
}

// replay(config, state, moves): plays ``moves`` (move codes) from ``state``; returns
// (steps, trick winners, hand scores, rewards, phase), a step being (seat, legal mask,
// the policy's move) before each move. An illegal move raises ValueError.
PyObject *replay(PyObject *, PyObject *args) {
    return guarded([&]() -> PyObject * {
        PyObject *capsule, *state, *moves_obj;
        if (!PyArg_ParseTuple(args, "OOO", &capsule, &state, &moves_obj)) return nullptr;
        const Config &cfg = *config_of(capsule);
        State st = read_state(cfg, state);
        auto moves = Items(moves_obj, "moves").integers(0, BID_BASE + MAX_HAND_SIZE);
        Ref steps(made(PyList_New(0)));
        Ref winners(made(PyList_New(0)));
        for (long long move : moves) {
            if (st.phase == OVER) fail(PyExc_ValueError, "a move after the hand's end");
            int seat = seat_to_act(cfg, st);
            uint64_t legal = legal_moves(cfg, st);
            long long bit = move - (st.phase == BIDDING ? BID_BASE : 0);
            if (bit < 0 || bit > 63 || !((legal >> bit) & 1))
                fail(PyExc_ValueError, "illegal move " + std::to_string(move));
            append(steps.get(), Py_BuildValue("(iKi)", seat, (unsigned long long)legal,
                                              policy_move(cfg, st, legal)));
            int done = st.tricks_done;
            apply_move(cfg, st, int(move));
            if (st.tricks_done > done) append(winners.get(), PyLong_FromLong(st.leader));
        }
        int score[MAXP];
        for (int s = 0; s < cfg.players; ++s) score[s] = hand_score(cfg, st, s);
        Ref scores(int_tuple(score, cfg.players));
        double reward[MAXP];
        rewards(cfg, st, reward);
        Ref rw(made(PyTuple_New(cfg.players)));
        for (int s = 0; s < cfg.players; ++s)
            PyTuple_SET_ITEM(rw.get(), s, made(PyFloat_FromDouble(reward[s])));
        return Py_BuildValue("(NNNNi)", steps.release(), winners.release(), scores.release(),
                             rw.release(), int(st.phase));
    });
}

// endgame(config, state, rivalry=0.0) -> (rewards, move, nodes): the exact endgame of a
// complete deal in its card play (endgame.hpp): each seat's reward under max-n, the card
// the seat to play plays, the positions visited. Refused (ValueError) with more than
// MAX_ENDGAME_TRICKS tricks left or hands that do not hold the cards left to play;
// Unsupported past ENDGAME_NODE_LIMIT positions.
PyObject *endgame(PyObject *, PyObject *args) {
    return guarded([&]() -> PyObject * {
        PyObject *capsule, *state;
        double rivalry = 0.0;
        if (!PyArg_ParseTuple(args, "OO|d", &capsule, &state, &rivalry)) return nullptr;
        const Config &cfg = *config_of(capsule);
        State st = read_state(cfg, state);
        if (!std::isfinite(rivalry)) fail(PyExc_ValueError, "rivalry must be finite");
        if (!endgame_fits(cfg, st, MAX_ENDGAME_TRICKS))
            fail(PyExc_ValueError, "endgame: card play with at most " +
                                       std::to_string(MAX_ENDGAME_TRICKS) +
                                       " tricks left, each seat holding the cards it has to play");
        Endgame solver(cfg, rivalry, ENDGAME_NODE_LIMIT);
        double reward[MAXP];
        int move = -1;
        bool solved = false;
        without_gil([&] { solved = solver.solve(st, reward, &move); });
        if (!solved)
            throw Unsupported("endgame: more than " + std::to_string(ENDGAME_NODE_LIMIT) +
                              " positions");
        Ref rw(made(PyTuple_New(cfg.players)));
        for (int s = 0; s < cfg.players; ++s)
            PyTuple_SET_ITEM(rw.get(), s, made(PyFloat_FromDouble(reward[s])));
        return Py_BuildValue("(Nil)", rw.release(), move, solver.nodes());
    });
}

// estimate(config, state, seat): the rollout policy's estimate of the seat's tricks.
PyObject *estimate(PyObject *, PyObject *args) {
    return guarded([&]() -> PyObject * {
        PyObject *capsule, *state;
        int seat;
        if (!PyArg_ParseTuple(args, "OOi", &capsule, &state, &seat)) return nullptr;
        const Config &cfg = *config_of(capsule);
        State st = read_state(cfg, state);
        if (seat < 0 || seat >= cfg.players) fail(PyExc_ValueError, "seat out of range");
        return PyFloat_FromDouble(estimate_tricks(cfg, st, seat));
    });
}

// A state of play_out's flat list from position ``at`` (advanced past it): per seat its
// hand (a mask), bid (-1: none), tricks and trick points; the trick's length and its
// (seat, card) pairs; leader, to_play, tricks_done, bid_count, bid_sum, eldest, phase,
// broken, first_bidder (tricktaker.kernel.values.flat_state writes it). Checked as
// read_state checks a KernelState.
State read_flat_state(const Config &cfg, const Items &data, Py_ssize_t &at) {
    const int n = cfg.players, size = cfg.hand_size;
    const Py_ssize_t total = data.size();
    auto next = [&](long long low, long long high) {
        if (at >= total) fail(PyExc_ValueError, "states: a state ends early");
        long long value = to_integer(data[at], data.name(at), low, high);
        ++at;
        return value;
    };
    State st{};
    for (int s = 0; s < n; ++s) {
        if (at >= total) fail(PyExc_ValueError, "states: a state ends early");
        st.hands[s] = to_mask(data[at], data.name(at), DECK_BITS);
        ++at;
    }
    for (int s = 0; s < n; ++s) st.bids[s] = int8_t(next(-1, size));
    for (int s = 0; s < n; ++s) st.tricks[s] = int8_t(next(0, size));
    for (int s = 0; s < n; ++s) st.points[s] = int16_t(next(INT16_MIN, INT16_MAX));
    long long cards = next(0, cfg.active_count - 1);
    for (long long i = 0; i < cards; ++i) {
        st.trick_seat[i] = uint8_t(next(0, n - 1));
        st.trick_card[i] = uint8_t(next(0, NCARDS - 1));
    }
    st.trick_len = int8_t(cards);
    st.leader = int8_t(next(0, n - 1));
    st.to_play = int8_t(next(0, n - 1));
    st.tricks_done = int8_t(next(0, size));
    st.bid_count = int8_t(next(0, n));
    st.bid_sum = int8_t(next(0, n * size));
    st.eldest = int8_t(next(0, n - 1));
    st.phase = int8_t(next(BIDDING, OVER));
    st.broken = next(0, 1) != 0;
    st.first_bidder = int8_t(next(-1, n - 1));
    check_state(cfg, st);
    return st;
}

// play_out(configs, states): each state's hand played to its end with the rollout policy
// (no noise, as ``rollout`` plays it); ``states`` is one flat list of ints, each state
// its config's index in ``configs`` then its fields (read_flat_state). Per state the
// winners of the tricks played from it, in order, and each seat's bid at the end (-1:
// none). The coach plays so the bids and card play of hands whose earlier decisions were
// played in Python (tricktaker.kernel.values.play_out_hands), a batch read in one call.
PyObject *play_out(PyObject *, PyObject *args) {
    return guarded([&]() -> PyObject * {
        PyObject *configs_arg, *states_arg;
        if (!PyArg_ParseTuple(args, "OO", &configs_arg, &states_arg)) return nullptr;
        Items config_items(configs_arg, "configs");
        std::vector<const Config *> known(size_t(config_items.size()));
        for (Py_ssize_t i = 0; i < config_items.size(); ++i)
            known[size_t(i)] = config_of(config_items[i]);
        Items data(states_arg, "states");
        std::vector<const Config *> configs;
        std::vector<State> states;
        Py_ssize_t at = 0;
        while (at < data.size()) {
            if (Py_ssize_t(states.size()) >= SAMPLES_LIMIT)
                fail(PyExc_ValueError,
                     "states: at most " + std::to_string(SAMPLES_LIMIT) + " a call");
            long long index = to_integer(data[at], data.name(at), 0,
                                         static_cast<long long>(known.size()) - 1);
            ++at;
            const Config *cfg = known[size_t(index)];
            configs.push_back(cfg);
            states.push_back(read_flat_state(*cfg, data, at));
        }
        std::vector<int8_t> winners(states.size() * MAX_HAND_SIZE, -1);
        without_gil([&] {
            for (size_t i = 0; i < states.size(); ++i) {
                const Config &cfg = *configs[i];
                State &st = states[i];
                st.first_bidder = -1; // as rollout() takes simultaneous bids: in seat order
                int8_t *into = &winners[i * MAX_HAND_SIZE];
                int count = 0;
                while (st.phase != OVER) {
                    uint64_t legal = legal_moves(cfg, st);
                    int move = popcount(legal) == 1
                                   ? lowest(legal) + (st.phase == BIDDING ? BID_BASE : 0)
                                   : policy_move(cfg, st, legal);
                    int done = st.tricks_done;
                    apply_move(cfg, st, move);
                    if (st.tricks_done > done && count < MAX_HAND_SIZE) into[count++] = st.leader;
                }
            }
        });
        Ref out(made(PyList_New(Py_ssize_t(states.size()))));
        for (size_t i = 0; i < states.size(); ++i) {
            const int8_t *from = &winners[i * MAX_HAND_SIZE];
            int count = 0;
            while (count < MAX_HAND_SIZE && from[count] >= 0) ++count;
            Ref row(made(PyTuple_New(count)));
            for (int k = 0; k < count; ++k)
                PyTuple_SET_ITEM(row.get(), k, made(PyLong_FromLong(from[k])));
            int bids[MAXP];
            for (int s = 0; s < configs[i]->players; ++s) bids[s] = states[i].bids[s];
            Ref bid_row(int_tuple(bids, configs[i]->players));
            PyList_SET_ITEM(out.get(), Py_ssize_t(i),
                            made(Py_BuildValue("(NN)", row.release(), bid_row.release())));
        }
        return out.release();
    });
}

PyMethodDef methods[] = {
    {"make_config", make_config, METH_O,
     "make_config(config: KernelConfig) -> a kernel config (a capsule): a hand's rules."},
    {"make_world", make_world, METH_VARARGS,
     "make_world(config, state: KernelState, facts: WorldFacts): what one seat knows, ready"
     " to sample and search."},
    {"search", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(search)),
     METH_VARARGS | METH_KEYWORDS,
     "search(world, moves, iterations, time_budget, exploration, noise, model_opponents,"
     " weighted, seed, rivalry, endgame_tricks=0, endgame_rollouts=False) -> (move,"
     " iterations, [(move, visits, mean)])"},
    {"pimc", pimc, METH_VARARGS,
     "pimc(world, moves, first, keep, rollouts, noise, time_budget, seed) -> (move, rollouts)"},
    {"bid", bid, METH_VARARGS,
     "bid(world, moves, rollouts, first, keep, noise, rivalry, time_budget, weighted, seed) ->"
     " (move, rollouts, [(move, deals, weight, mean, (weights of each trick count...))]): the"
     " bid from the trick distribution"},
    {"values", values, METH_VARARGS,
     "values(world, moves, deals, least, time_budget, seed, given=None) -> (made_known,"
     " [(deals, weight, sum, sum_sq, made, weight_sq)]): every move played out on the same"
     " deals"},
    {"samples", samples, METH_VARARGS, "samples(world, seed, count) -> [(hands..., weight)]"},
    {"sample_loop", sample_loop, METH_VARARGS, "sample_loop(world, seed, count) -> checksum"},
    {"kinds", kinds, METH_VARARGS,
     "kinds(world, seed, count) -> [chance each seat is a random player]: the opponent kinds"
     " learned from the hand's bids and plays over ``count`` deals"},
    {"playouts", playouts, METH_VARARGS,
     "playouts(config, state, seed, count, policy, noise, me) -> total score"},
    {"replay", replay, METH_VARARGS,
     "replay(config, state, moves) -> (steps, winners, scores, rewards, phase)"},
    {"estimate", estimate, METH_VARARGS, "estimate(config, state, seat) -> tricks"},
    {"endgame", endgame, METH_VARARGS,
     "endgame(config, state, rivalry=0.0) -> (rewards, move, nodes): the last tricks of a"
     " complete deal solved exactly (max-n)"},
    {"play_out", play_out, METH_VARARGS,
     "play_out(configs, states: [int]) -> [((trick winners...), (bids...))]: each state of"
     " the flat list (its config's index, then its fields) played to its hand's end by the"
     " rollout policy"},
    {nullptr, nullptr, 0, nullptr},
};

PyModuleDef module = {PyModuleDef_HEAD_INIT, "_core",
                      "The compiled search kernel of tricktaker (see tricktaker.kernel).", -1,
                      methods, nullptr, nullptr, nullptr, nullptr};

// The module's constants and field tables (see tricktaker/kernel/spec.py).
bool add_constants(PyObject *m) {
    const std::pair<const char *, long> constants[] = {
        {"BID_BASE", BID_BASE},
        {"MAX_PLAYERS", MAXP},
        {"CARDS", NCARDS},
        {"FREE_SUIT", FREE},
        {"SUIT_CLASSES", SUIT_CLASSES},
        {"MAX_HAND_SIZE", MAX_HAND_SIZE},
        {"OUTCOME_BITS", OUTCOME_BITS},
        {"MAX_OUTCOME_TRICKS", MAX_OUTCOME_TRICKS},
        {"MAX_ENDGAME_TRICKS", MAX_ENDGAME_TRICKS},
        {"SCORE_LIMIT", SCORE_LIMIT},
        {"PHASE_BIDDING", BIDDING},
        {"PHASE_PLAYING", PLAYING},
        {"PHASE_OVER", OVER},
    };
    for (const auto &[name, value] : constants)
        if (PyModule_AddIntConstant(m, name, value) < 0) return false;
    const char *const exported[] = {"CONFIG_FIELDS", "STATE_FIELDS", "FACTS_FIELDS", "SPLIT_FIELDS"};
    for (size_t t = 0; t < 4; ++t) {
        FieldTable &table = *TABLES[t];
        PyObject *names = PyTuple_New(table.count);
        if (names == nullptr) return false;
        table.interned.clear();
        for (int i = 0; i < table.count; ++i) {
            PyObject *name = PyUnicode_InternFromString(table.names[i]);
            if (name == nullptr) {
                Py_DECREF(names);
                return false;
            }
            Py_INCREF(name); // one reference kept for the reader, for the module's lifetime
            table.interned.push_back(name);
            PyTuple_SET_ITEM(names, i, name);
        }
        if (PyModule_AddObject(m, exported[t], names) < 0) {
            Py_DECREF(names);
            return false;
        }
    }
    return true;
}

} // namespace

PyMODINIT_FUNC PyInit__core(void) {
    PyObject *m = PyModule_Create(&module);
    if (m == nullptr) return nullptr;
    unsupported_error =
        PyErr_NewException("tricktaker.kernel._core.Unsupported", PyExc_ValueError, nullptr);
    if (unsupported_error == nullptr || PyModule_AddObject(m, "Unsupported", unsupported_error) < 0) {
        Py_XDECREF(unsupported_error);
        Py_DECREF(m);
        return nullptr;
    }
    Py_INCREF(unsupported_error);
    if (!add_constants(m)) {
        Py_DECREF(m);
        return nullptr;
    }
    return m;
}
