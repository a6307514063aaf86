"""Identity of the compiled database, kept apart from the ORM models so that checking a database's
freshness never imports the ORM."""

#: Bump when a table or column changes, or what is stored in it (the normalised texts: 5 reads Chinese
#: synonyms typed apart); an older database is rebuilt automatically.
SCHEMA_VERSION = 6
#: Marker in kb_meta that tells our databases from foreign SQLite files.
APPLICATION = "ascend-doctor-kb"
