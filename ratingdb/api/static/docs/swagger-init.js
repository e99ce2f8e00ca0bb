// Starts Swagger UI on /docs: a file rather than an inline script, so that the page's
// Content-Security-Policy allows scripts from ratingdb itself only.
(function () {
  "use strict";
  var element = document.getElementById("swagger-ui");
  window.ui = SwaggerUIBundle({
    url: element.dataset.openapiUrl,
    dom_id: "#swagger-ui",
    layout: "BaseLayout",
    deepLinking: true,
    showExtensions: true,
    showCommonExtensions: true,
    // No badge fetched from validator.swagger.io: the page works offline.
    validatorUrl: null,
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIBundle.SwaggerUIStandalonePreset],
  });
})();
