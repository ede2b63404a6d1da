"""Write docs/PROMPTS.md: the exact prompts a model receives, captured, one per source kind.

Each prompt is captured from the wire: ``answer()`` runs with the LLM writer against the local
fake OpenAI server (tests/fake_openai.py) over the bundled sample data, and the messages of the
first request are written out as they were sent. The privacy switch is on (the default) except
where a section says otherwise. Demonstrations come from the bundled pool (hashing encoder, so
the choice is deterministic) with k=3 to keep the page readable (the app's default is 8).

Usage:
    python scripts/capture_prompts.py            # rewrite docs/PROMPTS.md
    python scripts/capture_prompts.py --check    # exit 1 when docs/PROMPTS.md is stale
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from fake_openai import FakeOpenAIServer, FakeReply  # noqa: E402

from trustuqa_core import load_graph  # noqa: E402
from trustuqa_core.answer import answer  # noqa: E402
from trustuqa_core.demos import DemoPool, initial_demos  # noqa: E402
from trustuqa_core.llm import LLMClient, LLMSettings  # noqa: E402
from trustuqa_core.llm.budget import estimate_tokens  # noqa: E402
from trustuqa_core.mapping import HashingEncoder  # noqa: E402

DATA = ROOT / "sample_data"
OUT = ROOT / "docs" / "PROMPTS.md"
CASES = [
    ("Table", "who ranked next after federica brignone?", {"tables": ["giant_slalom.csv"]},
     True),
    ("Knowledge graph", "which films did Mel Brooks both write and direct?",
     {"kgs": ["movies_kg.txt"]}, True),
    ("Temporal knowledge graph", "who was the first winner of the Copley Medal?",
     {"tkgs": ["cron_tkg.tsv"]}, True),
    ("Temporal knowledge graph, privacy off", "who was the first winner of the Copley Medal?",
     {"tkgs": ["cron_tkg.tsv"]}, False),
    ("Mixed (table + KG + TKG)", "In which year did the director of the film ranked 6th in the "
     "comedy ranking receive the Grammy Award for Best Music Film?",
     {"tables": ["comedy_ranking.csv"], "kgs": ["movies_kg.txt"], "tkgs": ["cron_tkg.tsv"]},
     True),
]
HEURISTICS = """\
## How the schema is described

* **Direction.** Every KG/TKG relation is one line `relation: head kind -> tail kind`
  (`(time: year)` or `(time: span of years)` for temporal facts). A kind is derived from the
  data (`trustuqa_core/llm/shapes.py`), looking at up to 64 heads (or tails) of the relation:
  1. a literal format when 80% of them share one: `year`, `number`, `date (yyyy-mm-dd)`, or
     the format itself (`d:dd.dd`);
  2. for Freebase-style names (`people.person.profession`) the type most of them are heads of
     (`person`);
  3. otherwise another relation covering most of them: `tail of 'award received'` (things
     that relation points to) or `head of 'release_year'` (things that have one);
  4. with nothing covering 30% of them: `entity` for heads, and for tails `its <relation>`
     (a dotted name by its last part, `its spouse_s`), since in MetaQA and Wikidata a
     relation name describes the tail as seen from the head.
* **Privacy on** (default): no data value. Table columns show the format of their values
  (digits as `d`, letters as `a`, words as `text`, with shares when mixed) and how many rows
  leave them blank (`blank in 3 of 20 rows`). **Privacy off**: one example value per column,
  one example triple per relation.
* **Big graphs** (relation lines over 900 tokens, or over 100 relations): the relations
  shown are chosen within a budget of 900 tokens of relation lines (`RELATION_TOKENS` in
  `trustuqa_core/llm/prompts.py`), so short lines fit more of them: relations touching the
  question's linked entities first, then those 2 and 3 hops away (with the reverses of the
  1-hop relations, the relations of the linked entities' peers and the same-type siblings of
  1- and 2-hop ones), ranked by similarity to the question plus a small weight for relation
  size, with a share kept for the largest relations (`trustuqa_core/llm/relations.py`).
  Gold-relation recall (`scripts/relation_recall.py`, rules chosen on the WebQSP dev tune half,
  check half scored once): WebQSP dev check half 139 / 148 = 93.9%, 139 / 141 = 98.6% of the
  questions whose gold relations are in the merged graph (7 need a relation no dev subgraph
  has); CronQuestions valid 5,019 / 5,020 = 99.98%. Figures and commands:
  docs/LLM_RESULTS.md, section 1d.
* **Context budget.** Every prompt gets a token estimate; a warning is added to the answer when
  the estimate plus 512 reply tokens exceeds the model's context
  (`trustuqa_core/llm/budget.py`). The Ollama preset sends `options.num_ctx = 16384`.
* **Retries** add a note with the failed program, its error and the step that came back empty
  (`trustuqa_core/llm/retries.py`); under privacy, quoted values the model did not write are
  replaced by `'…'`.
"""


def capture(question: str, sources: dict[str, list[str]], privacy: bool) -> list[dict]:
    """The messages of the first chat request ``answer()`` sends for ``question``."""
    graph = load_graph(**{k: [DATA / f for f in v] for k, v in sources.items()})
    pool = DemoPool(initial_demos(), HashingEncoder(), cache_dir=None)
    with FakeOpenAIServer(lambda body, i: FakeReply.ok("Query1: \"count(set='x')\"")) as srv:
        client = LLMClient(LLMSettings(srv.base_url, "fake-model", api_key="k"), None,
                           sleep=lambda s: None)
        answer(question, graph, writer="openai", client=client, demos=pool, n=1, k=3,
               retries=0, privacy=privacy)
        return list(srv.chat_requests[0].json["messages"])


def fence(text: str) -> str:
    ticks = "````" if "```" in text else "```"
    return f"{ticks}text\n{text}\n{ticks}"


def page() -> str:
    parts = ["# What a model sees: captured prompts", "",
             "Generated by `python scripts/capture_prompts.py` (do not edit by hand; run it "
             "after changing a prompt file, the schema code or the bundled demos). Each prompt "
             "was sent by `answer()` to the local fake OpenAI server and is shown as received.",
             "", HEURISTICS]
    for title, question, sources, privacy in CASES:
        messages = capture(question, sources, privacy)
        files = ", ".join(f for v in sources.values() for f in v)
        parts += [f"## {title}", "",
                  f"Data: `{files}`; privacy {'on' if privacy else 'off'}; question: "
                  f"*{question}*; about {estimate_tokens(messages):,} tokens (estimate).", ""]
        for m in messages:
            parts += [f"**{m['role']}**", "", fence(m["content"]), ""]
    return "\n".join(parts).rstrip() + "\n"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="exit 1 if the page is stale")
    args = ap.parse_args()
    text = page()
    if args.check:
        stale = not OUT.is_file() or OUT.read_text(encoding="utf-8") != text
        print("docs/PROMPTS.md is stale: run scripts/capture_prompts.py" if stale else
              "docs/PROMPTS.md is up to date")
        return 1 if stale else 0
    OUT.write_text(text, encoding="utf-8")
    print(f"wrote {OUT.relative_to(ROOT)} ({len(text):,} characters)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
