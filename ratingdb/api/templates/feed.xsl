<?xml version="1.0" encoding="utf-8"?>
{#- The Atom feed as a page (routes.feeds): XSLT 1.0, applied by the browser, no script. -#}
<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform" xmlns:atom="http://www.w3.org/2005/Atom" exclude-result-prefixes="atom">
<xsl:output method="html" encoding="utf-8" indent="no" doctype-system="about:legacy-compat"/>
<xsl:template match="/atom:feed">
<html lang="{{ reader.language }}">
<head>
<meta charset="utf-8"/>
<meta name="viewport" content="width=device-width, initial-scale=1"/>
<title>{{ _('Feed of published lists') }} · {{ site.name }}</title>
<link rel="stylesheet" href="/static/ratingdb.css"/>
<link rel="icon" href="/favicon.ico"/>
</head>
<body>
<header class="site">
  <a class="brand" href="{{ '/' | link }}">{% if site.logo_path %}<img class="logo" src="{{ site.logo_path }}" alt=""/>{% endif %}{{ site.name }}</a>
  <nav class="site" aria-label="{{ _('Site') }}">
    <a href="{{ '/' | link }}">{{ _('Lists') }}</a>
    <a href="{{ '/calculator' | link }}">{{ _('Calculator') }}</a>
  </nav>
</header>
<main>
<h1>{{ _('Feed of published lists') }}</h1>
<p class="feed-intro">{{ _('This is a news feed: copy its address into a feed reader to hear of every list as it is published or corrected. Below, the latest publications.') }}</p>
<p class="meta">{{ _('Feed address:') }} <code>{{ feed_path }}</code></p>
<xsl:choose>
<xsl:when test="atom:entry">
<ol class="feed">
<xsl:for-each select="atom:entry">
<li>
<a href="{atom:link[@rel='alternate']/@href}"><xsl:value-of select="atom:title"/></a>
<span class="meta"> · <time datetime="{atom:published}"><xsl:value-of select="substring(atom:published, 1, 10)"/></time></span>
<br/><span class="meta"><xsl:value-of select="atom:summary"/></span>
</li>
</xsl:for-each>
</ol>
</xsl:when>
<xsl:otherwise><p>{{ _('No list published yet.') }}</p></xsl:otherwise>
</xsl:choose>
<p><a href="{{ '/lists' | link }}">{{ _('Every published list') }}</a></p>
</main>
<footer class="site">
  {{ _('Published ratings, read-only.') }}{% if site.contact_email %} {{ _('Found a mistake? Please report it:') }} <a href="{{ site.mailto }}">{{ site.contact_email }}</a>.{% endif %}
</footer>
</body>
</html>
</xsl:template>
</xsl:stylesheet>
