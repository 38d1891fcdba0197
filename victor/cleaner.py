"""The Python API. `extract` turns one page into text in one call;
`Cleaner` holds a loaded config, template and model and turns pages into
labelled blocks, so that a batch pays for loading once.

    import victor
    print(victor.extract(html))                    # str or bytes in, text out

    from victor import Cleaner
    cleaner = Cleaner("cleaneval")
    for page in pages:
        print(cleaner.clean(page).markdown())
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Sequence

from victor import decoding, features, page_type, second_pass
from victor.model import TrainedModel, check_recipe, load as load_model
from victor.collector import paused
from victor.output import DEFAULT_FORMAT, Rendering
from victor.config import DEFAULT_CONFIG, Config, load_config
from victor.settings import FAVOR
from victor.errors import EMPTY_PAGE, NO_TEXT, OtherLanguage, VictorError, about
from victor.output.language import parse_languages
from victor.labels import CONTENT
from victor.reading.page import Page, read_page
from victor.result import Result

if TYPE_CHECKING:  # imported when a config's perplexity extra is on
    from victor.perplexity import PerplexityModel


class Cleaner:
    """Loads what cleaning needs once; `clean` may then be called for many pages.

    `config` is a shipped config's name or a config file, and cleaning uses
    the model it names (`model:`, by default the shipped one of its name);
    `model` (a model folder, or a model made in memory: victor.model) is
    the model to use instead. A model follows its own record (victor/model/):
    a model alone brings the settings and decoding it was made with, and a
    config given with it must agree with that record, else VictorError
    says which key differs. With `threshold` (a probability, 0 to 1) a
    content block the model is less sure of than that becomes boilerplate;
    with `language` ("en", "en,de" or a list of codes) a page whose cleaned
    text is in none of them raises OtherLanguage, a VictorError."""

    def __init__(self, config: str | Path | Config | None = None,
                 model: str | Path | TrainedModel | None = None, threshold: float | None = None,
                 language: str | Sequence[str] | None = None, favor: str | None = None,
                 comments: str | None = None):
        if threshold is not None and not 0.0 <= threshold <= 1.0:
            raise VictorError(f"threshold {threshold:g}: must lie between 0 and 1 "
                              "(a probability that a block is content)")
        if favor is not None and favor not in FAVOR:
            raise VictorError(f"favor {favor!r}: choose one of {', '.join(FAVOR)}")
        if comments is not None and comments not in decoding.COMMENTS:
            raise VictorError(f"comments {comments!r}: choose one of "
                              f"{', '.join(decoding.COMMENTS)}")
        named = None
        if config is not None or model is None:
            named = config if isinstance(config, Config) else load_config(config or DEFAULT_CONFIG)
        if model is None and not named.model.exists():
            raise VictorError(f"{named.path}: its model {named.model} is not there (key 'model', "
                              "by default the config's own name); train one with victor learn "
                              f"--config {named.path} -o FOLDER FILES.anno and name it there, "
                              "or give --model FOLDER")
        trained = model if isinstance(model, TrainedModel) else load_model(model or named.model)
        if named is not None:
            check_recipe(trained, named)
        self.trained = trained
        # The config as named (it agrees with the model's record on every
        # key the record holds), else the record's own.
        self.config = named or trained.config
        self.model = trained.crf
        # What the model was trained without (learn --disable) stays out.
        self.selected = features.select_features(self.config,
                                                 self.model.metadata.get("disabled", []))
        self.lm = _language_model(self.config, self.selected)
        # The model's second pass (victor/second_pass/), its trees loaded once.
        self.second_pass = trained.trees
        self.threshold = threshold
        self.favor = favor
        self.comments = comments
        # Whether deciding a page asks the model's page-type classifier (its
        # second pass's page-type boosters, article bars, readers' sections,
        # `comments` dropped from articles).
        second_settings = decoding.with_comments(self.config, comments).second_pass
        self.reads_page_type = trained.page_type is not None and (
            comments == "drop" or second_settings is not None and second_settings.reads_page_type)
        # "" is a mistake, not "any language": it would silently filter nothing.
        self.languages = parse_languages(language) if language is not None else ()

    @classmethod
    def from_model(cls, model: str | Path | TrainedModel, threshold: float | None = None,
                   language: str | Sequence[str] | None = None,
                   favor: str | None = None, comments: str | None = None) -> "Cleaner":
        """A Cleaner of a trained model and nothing else."""
        return cls(None, model, threshold, language, favor, comments)

    @paused
    def read(self, data: bytes | str, source: str = "-", url: str = "",
             encoding: str | None = None) -> Page:
        return read_page(data, self.config, source, encoding, url)

    @paused
    def clean(self, data: bytes | str, source: str = "-", url: str = "",
              encoding: str | None = None) -> Result:
        """`data` is the page as bytes (of any encoding, detected) or as
        text (already decoded). `source` names the page in error messages.
        `url` and `encoding` come from outside the page (a crawl record);
        the page's own CleanEval wrapper, if any, wins for the URL.

        A page with no text (empty, whitespace, an empty body, scripts
        only) raises VictorError, as the command reports it: an empty
        output would hide a failed download. `read` and `label` take such
        a page without complaint (a crawl's record of it is still written)."""
        if isinstance(data, (bytearray, memoryview)):
            data = bytes(data)
        if not isinstance(data, (bytes, str)):
            raise TypeError(about(source, f"a page is str or bytes, not {type(data).__name__}"))
        if not data:
            raise VictorError(about(source, EMPTY_PAGE))
        page = self.read(data, source, url, encoding)
        if not page.blocks:
            raise VictorError(about(source, NO_TEXT))
        result = self.label(page)
        if self.threshold is not None and not CONTENT.intersection(result.labels):
            # Decoding always keeps some block: only the threshold empties a page.
            raise VictorError(about(source, f"threshold {self.threshold:g} kept no block (the "
                                            f"likeliest is content at {max(result.content):.2f}); "
                                            "lower it"))
        self.check_language(result, source)
        return result

    def check_language(self, result: Result, source: str = "-") -> None:
        """Raises OtherLanguage for a page whose text is in none of the
        languages asked for (a page too short to tell is none of them)."""
        if self.languages and result.language not in self.languages:
            raise OtherLanguage(about(source, f"text in {result.language or 'no language told'}, "
                                              f"not {','.join(self.languages)}"))

    @paused
    def label(self, page: Page) -> Result:
        """The page's blocks labelled: the CRF's scores, then the one
        decision after them (victor.decoding.decide) with this cleaner's
        trees, `favor` and `threshold`, and the output's own last step."""
        columns = features.columns(page, self.config, self.lm, self.selected)
        scores = self.model.column_scores(columns)
        result = Result(page, self.model.best_labels(scores), columns, scores, self.model)
        second = self.second_pass
        trees = None if second is None else (
            lambda labels: second_pass.probabilities(second, columns, page.blocks,
                                                   result.marginals, labels, result.page_type))
        # The page's type, where the model's trees or bars read it: from the
        # page and its blocks' path groups, before the trees are asked.
        if self.reads_page_type:
            result.page_type = page_type.type_probabilities(
                self.trained.page_type, page, second_pass.page_paths(columns, page.blocks),
                words=columns.words)
        found = decoding.layout(page.blocks, page.unseen)
        result.comment_blocks = tuple(b.id for b, section in zip(page.blocks, found.sections)
                                      if section == "comments")
        decided = decoding.decide(result.labels, result.marginals, result.texts, found,
                                  self.config, trees=trees, favor=self.favor,
                                  threshold=self.threshold, temperature=self.model.temperature,
                                  bridged=True, page_type=result.page_type,
                                  comments=self.comments)
        result.labels, result.fallback, result.second, result.unseen_share = (
            decided.labels, decided.fallback, decided.second, decided.unseen_share)
        return result


def _language_model(config: Config, selected: Sequence[str]) -> PerplexityModel | None:
    """The config's language model when the perplexity feature is selected,
    else None: only then are the language-model code and KenLM imported."""
    if "perplexity" not in selected:
        return None
    from victor.perplexity import for_config

    return for_config(config, selected)


def extract(html: bytes | str, config: str | Path | None = None, output: str = DEFAULT_FORMAT,
            *, model: str | Path | None = None, threshold: float | None = None,
            language: str | Sequence[str] | None = None,
            url: str = "", source: str = "-", favor: str | None = None,
            links: bool = True, images: bool = True, tables: bool = True,
            comments: str | None = None) -> str:
    """The page cleaned into one string, in any format of `victor clean
    --format` ("text", "markdown", "cleaneval", "jsonl", ...). `links`,
    `images` and `tables` False leave them out of markdown and html, as
    `--no-links`, `--no-images` and `--no-tables` do; `url` is the page's
    address, which relative links resolve against; `favor` "precision" or
    "recall" keeps less or more around what the model is sure of;
    `comments` "keep" or "drop" keeps readers' comment sections or drops
    them from articles (a forum's posts stay), where by default the page's
    type decides.

    `html` is bytes of any encoding or text already decoded; the two give
    the same result. The config's model is loaded on the first call and
    kept for the next ones with the same config, model and threshold.
    Bad input (no page, no text) raises VictorError with a one-line
    message; a page that is neither str nor bytes raises TypeError."""
    if language is not None and not isinstance(language, str):
        language = ",".join(language)  # hashable, for the cache
    return _cleaner(config or DEFAULT_CONFIG, model, threshold, language, favor, comments).clean(
        html, source, url).render(output, Rendering(links, images, tables))


@lru_cache(maxsize=4)
def _cleaner(config: str | Path, model: str | Path | None, threshold: float | None,
             language: str | None = None, favor: str | None = None,
             comments: str | None = None) -> Cleaner:
    """Loading takes longer than cleaning a page: a loop over `extract`
    must not pay it for every page."""
    return Cleaner(config, model, threshold, language, favor, comments)
