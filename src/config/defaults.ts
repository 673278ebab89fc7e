/**
 * The config the schema gives for no keys at all (`Config.parse({})`), so a run with nothing to
 * validate does not build the schema. Generated: `ZEPH_UPDATE_GOLDEN=1 deno test -A
 * tests/config/defaults_test.ts` rewrites it, and that test fails when it differs from the schema.
 */
import type { Config } from "./schema.ts";

/**
 * A fresh copy of the defaults on every call: callers may change the config they get. (The cast:
 * TypeScript cannot type the permission table's settings beside its rule lists; the test checks
 * the value.)
 */
export function defaultsSnapshot(): Config {
  return {
    "agent": {
      "max_tool_iterations": 10,
      "context_budget_tokens": 128000,
      "context_budget_ratio": 0.8,
      "doom_loop_threshold": 3,
      "repeat_threshold": 3,
      "system_prompt": "",
      "default_mode": "code",
    },
    "llm": {
      "provider": "ollama",
      "timeout": 120,
      "claude": {
        "model": "claude-sonnet-4-6",
        "base_url": "",
        "max_tokens": 8192,
        "prompt_cache": true,
      },
      "openai": {
        "model": "gpt-4.1",
        "base_url": "",
        "max_tokens": 8192,
      },
      "ollama": {
        "model": "qwen3:8b",
        "base_url": "http://127.0.0.1:11434",
        "tool_use": true,
        "num_ctx": 0,
      },
    },
    "memory": {
      "sqlite_path": "",
    },
    "tools": {
      "enabled": true,
      "summarize_output": false,
      "max_tool_calls_per_session": 0,
      "shell": {
        "timeout": 30,
        "blocked_commands": [],
        "allowed_commands": [],
        "allowed_paths": [],
        "allow_network": true,
        "confirm_patterns": [
          "rm ",
          "git push -f",
          "git push --force",
          "drop table",
          "drop database",
          "truncate ",
          "$(",
          "`",
          "<(",
          ">(",
          "<<<",
          "eval ",
        ],
        "env_blocklist": [
          "ZEPH_",
          "AWS_",
          "AZURE_",
          "GCP_",
          "GOOGLE_",
          "OPENAI_",
          "ANTHROPIC_",
          "HF_",
          "HUGGING",
        ],
        "max_command_length": 10000,
        "max_subcommands": 200,
        "max_output_bytes": 8388608,
        "sandbox": {
          "mode": "auto",
          "allow_network": false,
          "read_only_paths": [],
          "hidden_paths": [],
          "allowed_domains": [],
        },
      },
      "file": {
        "allowed_paths": [],
        "deny_read": [],
        "allow_read": [],
        "max_read_lines": 2000,
        "max_line_chars": 2000,
        "grep_max_matches": 100,
        "find_max_results": 200,
        "sandbox": {
          "mode": "auto",
        },
      },
      "permissions": {
        "autonomy": "supervised",
        "protected_paths": [
          ".git/**",
          ".gitattributes",
          ".gitmodules",
          ".zeph/**",
          ".mcp.json",
          ".vscode/settings.json",
          ".envrc",
          ".bashrc",
          ".bash_profile",
          ".bash_login",
          ".bash_logout",
          ".profile",
          ".zshrc",
          ".zshenv",
          ".zprofile",
          ".zlogin",
          ".inputrc",
        ],
      },
      "overflow": {
        "threshold": 50000,
        "retention_days": 7,
        "max_overflow_bytes": 10485760,
      },
      "filters": {
        "enabled": true,
        "filters_path": "",
        "generic": true,
        "keep_unfiltered": "always",
        "security": {
          "enabled": true,
          "extra_patterns": [],
        },
      },
      "scrape": {
        "timeout": 15,
        "max_body_bytes": 1048576,
        "allowed_domains": [],
        "denied_domains": [],
      },
      "diagnostics": {
        "max_diagnostics": 50,
      },
      "audit": {
        "enabled": true,
        "path": "",
      },
      "retry": {
        "max_attempts": 2,
        "base_ms": 500,
        "max_ms": 5000,
        "budget_secs": 30,
      },
      "result_cache": {
        "enabled": true,
        "ttl_secs": 300,
      },
      "anomaly": {
        "enabled": true,
        "window_size": 20,
        "failure_threshold": 0.7,
        "auto_block": true,
      },
      "policy": {
        "enabled": false,
        "default_effect": "deny",
        "rules": [],
        "policy_file": "",
      },
      "authorization": {
        "enabled": false,
        "rules": [],
      },
      "tafc": {
        "enabled": false,
        "complexity_threshold": 0.6,
      },
      "schema_filter": {
        "enabled": false,
        "ranking": "lexical",
        "always_on": [
          "read",
          "bash",
        ],
        "top_k": 6,
        "min_score": 0,
        "min_description_words": 3,
      },
      "dependencies": {
        "enabled": false,
        "boost_per_dep": 0.15,
        "max_total_boost": 0.2,
        "rules": {},
      },
      "undo": {
        "enabled": true,
        "max_file_bytes": 1048576,
        "max_conversation_bytes": 67108864,
      },
    },
    "mcp": {
      "startup_timeout": 30,
      "servers": [],
    },
    "modes": {},
  } as unknown as Config;
}
