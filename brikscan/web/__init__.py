"""The battle table in the browser: a local Starlette app over the same functions as the CLI.

``session`` holds one model (or scene) and its Analysis and answers the API in plain dicts; ``geometry`` packs
the model as distinct parts plus instance transforms (binary); ``app`` is the HTTP skin; ``static/`` the page.
"""
