"""How much of a question's time is ours when the LLM is slow: a fake LLM that takes 1 s.

A FakeOpenAIServer on 127.0.0.1 answers every chat completion after ``--delay`` seconds with
correct query programs for a generated table (1,000 rows x 8 columns). ``answer()`` runs with
the LLM writer through the real openai client. The time spent waiting for the LLM is measured
around ``LLMClient.complete``; everything else (retrieval, prompt building, parsing, mapping,
execution of the n samples, voting) is "the rest". Reported per configuration: the first
question (cold caches) and the median of the following ones.

Usage:
    python scripts/llm_overhead.py [--delay 1.0] [--questions 6] [--n 5] [--json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from fake_openai import FakeOpenAIServer, FakeReply  # noqa: E402

from trustuqa_core import load_graph  # noqa: E402
from trustuqa_core.answer import answer  # noqa: E402
from trustuqa_core.demos import DemoPool, initial_demos  # noqa: E402
from trustuqa_core.llm import LLMClient, LLMSettings  # noqa: E402
from trustuqa_core.mapping import HashingEncoder, Mapper  # noqa: E402

NATIONS = ["Italy", "Spain", "Japan", "Kenya", "Chile", "Norway", "Egypt", "Peru"]


def table(rows: int = 1000) -> bytes:
    lines = ["Rank,Athlete,Nation,Year,Gold,Silver,Bronze,Total"]
    for i in range(1, rows + 1):
        g, s, b = i % 7, (i * 3) % 5, (i * 5) % 4
        nation = NATIONS[(i * i) % 11 % 8]  # uneven: some nations have more athletes
        lines.append(f"{i},Athlete {i},{nation},{1950 + i % 70},{g},{s},{b},{g + s + b}")
    return ("\n".join(lines) + "\n").encode()


def q(*calls: str, target: str = "") -> str:
    head = [f"## Target type: {{{target}}}"] if target else []
    return "\n".join(head + [f'Query{i}: "{c}"' for i, c in enumerate(calls, 1)])


QUESTIONS = {
    "How many gold medals did Athlete 17 win?": q(
        "get_information(relation='Athlete', tail_entity='Athlete 17')",
        "get_information(relation='Gold', head_entity='output_of_query1')", target="Gold"),
    "How many athletes from Kenya won more than 3 gold medals?": q(
        "get_information(relation='Nation', tail_entity='Kenya')",
        "get_information(relation='Gold', tail_entity>'3')",
        "set_intersection(set1='output_of_query1', set2='output_of_query2')",
        "count(set='output_of_query3')"),
    "What is the total number of bronze medals won by Norway?": q(
        "get_information(relation='Nation', tail_entity='Norway')",
        "get_information(relation='Bronze', head_entity='output_of_query1')",
        "sum(set='output_of_query2')"),
    "Which athlete is listed right after Athlete 500?": q(
        "get_information(relation='Athlete', tail_entity='Athlete 500')",
        "next_row(set='output_of_query1')", target="Athlete"),
    "What is the average total of athletes from Chile after 2000?": q(
        "get_information(relation='Nation', tail_entity='Chile')",
        "get_information(relation='Year', tail_entity>'2000')",
        "set_intersection(set1='output_of_query1', set2='output_of_query2')",
        "get_information(relation='Total', head_entity='output_of_query3')",
        "mean(set='output_of_query4')"),
    "Which nation has the most athletes?": q(
        "get_information(relation='Nation', tail_entity='most')",
        "get_information(relation='Nation', head_entity='output_of_query1')"),
}


class TimedClient:
    """Wraps an LLMClient and adds up the time spent inside ``complete``."""

    def __init__(self, client: LLMClient) -> None:
        self.client, self.settings, self.seconds, self.calls = client, client.settings, 0.0, 0

    def complete(self, messages: list[dict[str, Any]], n: int = 1,
                 temperature: float | None = None) -> list[str]:
        t0 = time.perf_counter()
        try:
            return self.client.complete(messages, n, temperature)
        finally:
            self.seconds += time.perf_counter() - t0
            self.calls += 1


def responder(delay: float, ignore_n: bool):  # noqa: ANN201
    def respond(body: dict, index: int) -> FakeReply:
        last = body["messages"][-1]["content"]
        text = next((t for question, t in QUESTIONS.items() if question in last), "nothing")
        count = 1 if ignore_n else int(body.get("n") or 1)
        return FakeReply(texts=[text] * count, delay_s=delay)

    return respond


def run(delay: float, n: int, ignore_n: bool, questions: int, encoder_name: str) -> dict:
    graph = load_graph(tables=[table()])
    encoder = HashingEncoder()
    if encoder_name == "minilm":
        from trustuqa_core.mapping import default_encoder

        encoder = default_encoder()
        encoder.encode(["warm up"])  # the model load is not part of a question
    mapper = Mapper(graph, encoder)
    pool = DemoPool(initial_demos(), encoder, cache_dir=None)
    rows = []
    with FakeOpenAIServer(responder(delay, ignore_n)) as srv:
        settings = LLMSettings(srv.base_url, "fake-1s", n=n, timeout_s=30)
        names = list(QUESTIONS)[:questions]
        for i in range(questions):
            question = names[i % len(names)]
            client = TimedClient(LLMClient(settings, None))
            before = srv.chat_calls
            t0 = time.perf_counter()
            result = answer(question, graph, writer="openai", client=client,  # type: ignore[arg-type]
                            mapper=mapper, demos=pool, n=n)
            total = time.perf_counter() - t0
            assert result.answer, (question, result.error)
            rest = total - client.seconds
            rows.append({"question": question, "total_s": total, "llm_s": client.seconds,
                         "llm_calls": srv.chat_calls - before, "rest_ms": 1000 * rest,
                         "rest_pct": 100 * rest / total, "answer": result.answer})
    later = rows[1:] or rows
    # a question asked for the first time pays for encoding it; a repeat finds it cached
    fresh = [r for i, r in enumerate(rows[1:], 1)
             if r["question"] not in {x["question"] for x in rows[:i]}] or later
    return {
        "config": f"n={n}, server {'ignores' if ignore_n else 'honours'} n, "
                  f"{delay:g} s per call, retrieval encoder {encoder.name}",
        "first_question": {k: round(v, 3) if isinstance(v, float) else v
                           for k, v in rows[0].items() if k != "answer"},
        "later_median_rest_ms": round(statistics.median(r["rest_ms"] for r in later), 2),
        "later_median_rest_pct": round(statistics.median(r["rest_pct"] for r in later), 3),
        "later_max_rest_pct": round(max(r["rest_pct"] for r in later), 3),
        "new_median_rest_ms": round(statistics.median(r["rest_ms"] for r in fresh), 2),
        "new_median_rest_pct": round(statistics.median(r["rest_pct"] for r in fresh), 3),
        "llm_calls_per_question": rows[-1]["llm_calls"],
    }


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--delay", type=float, default=1.0)
    p.add_argument("--questions", type=int, default=6)
    p.add_argument("--n", type=int, default=5)
    p.add_argument("--encoder", choices=["hashing", "minilm"], default="hashing")
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    reports = [run(args.delay, args.n, ignore, args.questions, args.encoder)
               for ignore in (False, True)]
    if args.json:
        print(json.dumps(reports, indent=2))
        return 0
    for r in reports:
        print(r["config"])
        first = r["first_question"]
        print(f"  first question : total {first['total_s']:.3f} s, LLM {first['llm_s']:.3f} s "
              f"in {first['llm_calls']} HTTP request(s), rest {first['rest_ms']:.1f} ms "
              f"({first['rest_pct']:.2f}%)")
        print(f"  later questions: rest median {r['later_median_rest_ms']:.1f} ms "
              f"({r['later_median_rest_pct']:.2f}% of the total), "
              f"max {r['later_max_rest_pct']:.2f}%")
        print(f"  of which new  : rest median {r['new_median_rest_ms']:.1f} ms "
              f"({r['new_median_rest_pct']:.2f}%)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
