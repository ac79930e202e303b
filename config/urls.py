"""URL routes: the admin, the health check; pages and the API join as they are built."""

from django.contrib import admin
from django.templatetags.static import static
from django.urls import include, path
from django.views.generic import RedirectView

from config.health import healthz
from core.apislash import not_found, server_error

admin.site.site_header = "VABG League Manager"
admin.site.site_title = "VABG commissioner"
admin.site.index_title = "Commissioner's desk"

urlpatterns = [
    path("admin/", admin.site.urls),
    path("healthz", healthz, name="healthz"),
    # Browsers ask for /favicon.ico on pages that name no icon (the admin's, a JSON answer).
    path("favicon.ico", RedirectView.as_view(url=static("core/favicon.svg"), permanent=True)),
    path("api/", include("config.api")),
    path("table/", include("table.urls")),
    path("", include("challenge.urls")),
    path("", include("league.urls")),
]

# An address that names nothing, and a server error: JSON under /api/ and /table/api/ (with
# DEBUG on too: core/apislash.py), the site's page elsewhere (with DEBUG off; DEBUG shows
# Django's own page).
handler404 = not_found
handler500 = server_error
