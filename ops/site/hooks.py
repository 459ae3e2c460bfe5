"""MkDocs hooks of the documentation site (mkdocs.yml names this file).

The site is built from the files the repository already has, with no copy to keep in step:
- README.md is the home page, and BENCHMARKS.md, RELIABILITY.md, CHANGELOG.md and CONTRIBUTING.md
  are pages of their own, read from the repository's root;
- their links are written for GitHub (``docs/x.md`` from the root, ``../BENCHMARKS.md`` from docs/),
  so each link is turned into the site's: a page of the site by its site name, any other file of the
  repository (a script, a manifest, a Java class) into its address on GitHub;
- the decision records (docs/decisions/NNNN-*.md) are listed in the navigation under their index,
  in number order, so a new record needs no edit of mkdocs.yml;
- a page that is in docs/ but not in the navigation is a warning, which ``mkdocs build --strict``
  turns into a failure.
"""
import logging
import os
import posixpath
import re

from mkdocs.structure.files import File

log = logging.getLogger("mkdocs.hooks.leaf")

# Root file -> its name in the site.
ROOT_PAGES = {
    "README.md": "index.md",
    "BENCHMARKS.md": "benchmarks.md",
    "RELIABILITY.md": "reliability.md",
    "CHANGELOG.md": "changelog.md",
    "CONTRIBUTING.md": "contributing.md",
}
SITE_NAME_OF = {"/" + root: site for root, site in ROOT_PAGES.items()}
LINK = re.compile(r"(\]\()([^)\s]+)(\))")
RECORD = re.compile(r"^(\d{4})-.*\.md$")


def _root(config):
    return os.path.dirname(os.path.abspath(config["config_file_path"]))


def on_config(config):
    """Puts every decision record under the Decisions entry, after its index."""
    records_dir = os.path.join(config["docs_dir"], "decisions")
    records = sorted(name for name in os.listdir(records_dir) if RECORD.match(name))

    def expand(items):
        for item in items:
            if isinstance(item, dict):
                for title, value in item.items():
                    if value == "decisions/index.md":
                        item[title] = [{"Index": "decisions/index.md"}] + [
                            "decisions/" + name for name in records]
                    elif isinstance(value, list):
                        expand(value)

    expand(config["nav"])
    return config


def on_files(files, config):
    """Adds the root pages, each read from the root under its site name."""
    root = _root(config)
    for root_name, site_name in ROOT_PAGES.items():
        page = File(site_name, config["docs_dir"], config["site_dir"], config["use_directory_urls"])
        page.abs_src_path = os.path.join(root, root_name)
        files.append(page)
    return files


def on_nav(nav, config, files):
    """Warns about a page that no navigation entry reaches."""
    in_nav = {page.file.src_path for page in nav.pages}
    for file in files.documentation_pages():
        if file.src_path not in in_nav:
            log.warning("%s is not in the navigation of mkdocs.yml", file.src_path)
    return nav


def on_page_markdown(markdown, page, config, files):
    """Turns the page's GitHub links into the site's."""
    root = _root(config)
    repo = config.get("repo_url", "").rstrip("/")
    site_names = {file.src_path for file in files}
    source = os.path.relpath(page.file.abs_src_path, root).replace(os.sep, "/")
    source_dir = posixpath.dirname(source)
    page_dir = posixpath.dirname(page.file.src_path)
    if not source.startswith("docs/"):
        page.edit_url = "%s/edit/main/%s" % (repo, source)

    def rewrite(match):
        target = match.group(2)
        if re.match(r"^[a-z]+:", target) or target.startswith("#"):
            return match.group(0)
        path, _, anchor = target.partition("#")
        in_repo = posixpath.normpath(posixpath.join(source_dir, path))
        if in_repo.startswith("docs/"):
            site_path = in_repo[len("docs/"):]
        else:
            site_path = SITE_NAME_OF.get("/" + in_repo)
        if site_path is not None and (site_path in site_names or site_path.rstrip("/") + "/index.md" in site_names):
            new = posixpath.relpath(site_path, page_dir or ".")
        elif site_path is not None and os.path.isdir(os.path.join(config["docs_dir"], site_path)):
            new = posixpath.relpath(site_path, page_dir or ".")
        else:
            kind = "tree" if os.path.isdir(os.path.join(root, in_repo)) else "blob"
            if not os.path.exists(os.path.join(root, in_repo)):
                log.warning("%s links to %s, which is not in the repository", source, target)
            new = "%s/%s/main/%s" % (repo, kind, in_repo)
        return match.group(1) + new + ("#" + anchor if anchor else "") + match.group(3)

    return LINK.sub(rewrite, markdown)
